import { tagKey } from '@common/links/link-schemas';
import type { Database } from '../db/database';
import { type DatabaseReader, rowsOn } from '../db/database-reader';

// A workspace's tags and the links that carry them. A tag is one row per workspace and lowercase
// key (its first spelling is its name); link_tags joins it to links. Both cascade away with the
// workspace or the link, so nothing here has to tidy up after a deletion.

/**
 * Gives a link exactly these tags (already validated by tagsSchema): the missing ones are added,
 * the others taken off. Run inside the caller's transaction.
 */
export async function setLinkTags(db: Database, workspaceId: number, urlId: number, tags: string[]): Promise<void> {
  const keys = tags.map(tagKey);
  if (keys.length > 0) {
    // A tag the workspace already has keeps its first spelling.
    await db
      .insertInto('tags')
      .values(tags.map((name) => ({ workspace_id: workspaceId, name, name_key: tagKey(name) })))
      .onConflict((oc) => oc.columns(['workspace_id', 'name_key']).doNothing())
      .execute();
  }
  const wanted =
    keys.length === 0
      ? []
      : (await db.selectFrom('tags').select('id').where('workspace_id', '=', workspaceId).where('name_key', 'in', keys).execute()).map((row) =>
          Number(row.id),
        );
  let removal = db.deleteFrom('link_tags').where('url_id', '=', urlId);
  if (wanted.length > 0) removal = removal.where('tag_id', 'not in', wanted);
  await removal.execute();
  if (wanted.length > 0) {
    await db
      .insertInto('link_tags')
      .values(wanted.map((tagId) => ({ tag_id: tagId, url_id: urlId })))
      .onConflict((oc) => oc.columns(['tag_id', 'url_id']).doNothing())
      .execute();
  }
}

/**
 * Tags for links just inserted, which have none yet (the import's chunk): each tag the workspace
 * lacks added once (the first spelling in the chunk wins, a tag it has keeps its own), then every
 * link's in one insert. Run inside the caller's transaction; tags already validated by tagsSchema.
 */
export async function tagNewLinks(db: Database, workspaceId: number, links: { urlId: number; tags: string[] }[]): Promise<void> {
  const names = new Map<string, string>();
  for (const link of links) for (const tag of link.tags) if (!names.has(tagKey(tag))) names.set(tagKey(tag), tag);
  if (names.size === 0) return;
  await db
    .insertInto('tags')
    .values([...names].map(([key, name]) => ({ workspace_id: workspaceId, name, name_key: key })))
    .onConflict((oc) => oc.columns(['workspace_id', 'name_key']).doNothing())
    .execute();
  const rows = await db.selectFrom('tags').select(['id', 'name_key']).where('workspace_id', '=', workspaceId).where('name_key', 'in', [...names.keys()]).execute();
  const idOf = new Map(rows.map((row) => [row.name_key, Number(row.id)]));
  const pairs = links.flatMap(({ urlId, tags }) => [...new Set(tags.map(tagKey))].map((key) => ({ tag_id: idOf.get(key)!, url_id: urlId })));
  await db.insertInto('link_tags').values(pairs).execute();
}

// Alphabetical the Spanish way ('Álbum' beside 'algo', not after 'zeta'), the same on both databases.
const collator = new Intl.Collator('es', { sensitivity: 'base', numeric: true });
const alphabetical = (a: string, b: string) => collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);

/** Each link's tags, alphabetical, for the links of a page. */
export async function tagsOf(from: Database | DatabaseReader, urlIds: number[]): Promise<Map<number, string[]>> {
  const byLink = new Map<number, string[]>();
  if (urlIds.length === 0) return byLink;
  const rows = await rowsOn(from, (db) =>
    db.selectFrom('link_tags').innerJoin('tags', 'tags.id', 'link_tags.tag_id').select(['link_tags.url_id', 'tags.name']).where('link_tags.url_id', 'in', urlIds),
  );
  for (const row of rows) {
    const id = Number(row.url_id);
    byLink.set(id, [...(byLink.get(id) ?? []), row.name]);
  }
  for (const tags of byLink.values()) tags.sort(alphabetical);
  return byLink;
}

/** GET /api/tags: every tag of the workspace on at least one link, with how many, alphabetical. */
export async function workspaceTags(reader: DatabaseReader, workspaceId: number): Promise<{ name: string; links: number }[]> {
  const rows = await reader.rows(
    reader.db
      .selectFrom('tags')
      .innerJoin('link_tags', 'link_tags.tag_id', 'tags.id')
      .select((eb) => ['tags.name', eb.fn.countAll().as('links')])
      .where('tags.workspace_id', '=', workspaceId)
      .groupBy(['tags.id', 'tags.name']),
  );
  return rows.map((row) => ({ name: row.name, links: Number(row.links) })).sort((a, b) => alphabetical(a.name, b.name));
}
