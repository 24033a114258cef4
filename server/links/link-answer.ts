import type { Link } from '@common/links/link-schemas';
import type { AppContext } from '../app-context';
import type { Database } from '../db/database';
import type { DatabaseReader } from '../db/database-reader';
import type { UrlRow } from '../db/schema';
import { domainHostnamesOf } from './link-domain';
import { rowToLink } from './link-mapper';
import { creatorsOf, formerAliasesOf } from './links.queries';
import type { LinkActor } from './link-actor';
import type { EditedLink } from './link-edit';
import { tagsOf } from './link-tags';

type Addresses = Parameters<typeof rowToLink>[1];

/** Rows of one workspace as links of the API: their former aliases, tags and creators looked up together. */
export async function linksForApi(from: Database | DatabaseReader, context: Addresses, workspace: string, rows: UrlRow[]): Promise<Link[]> {
  const ids = rows.map((row) => row.id);
  const [previous, tags, creators, domains] = await Promise.all([
    formerAliasesOf(from, ids),
    tagsOf(from, ids),
    creatorsOf(from, rows.map((row) => row.user_id)),
    domainHostnamesOf(from, rows.map((row) => row.domain_id)),
  ]);
  return rows.map((row) =>
    rowToLink(row, context, {
      workspace,
      createdBy: creators.get(row.user_id)!,
      domain: row.domain_id === null ? null : (domains.get(Number(row.domain_id)) ?? null),
      previousAddresses: previous.get(row.id),
      tags: tags.get(row.id),
    }),
  );
}

/** An edited link as the API gives it (PATCH, choosing an A/B winner, the MCP tool that edits). */
export async function editedLinkForApi(context: Pick<AppContext, 'database'> & Addresses, actor: LinkActor, edited: EditedLink): Promise<{ link: Link }> {
  const createdBy = (await creatorsOf(context.database.db, [edited.row.user_id])).get(edited.row.user_id)!;
  const extras = { workspace: actor.workspace.slug, createdBy, domain: edited.domain, previousAddresses: edited.previousAddresses, tags: edited.tags };
  return { link: rowToLink(edited.row, context, extras) };
}
