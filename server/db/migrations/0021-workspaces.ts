import { isReservedPath } from '@common/reserved-paths';
import { slugCandidate, slugFromName } from '@common/workspaces/workspace-slug';
import { type Kysely, sql, type Transaction } from 'kysely';
import { dialectOf, idColumn, idType } from '../dialect';

// Workspaces: every link, tag and API token belongs to one (docs/workspaces.md).
//
// Each user gets a personal workspace (workspaces.personal_user_id: theirs, deleted with them) with
// themselves as owner, and every link, tag and token they had moves into it. urls.user_id stays,
// now meaning who created the link. The dashboard's sort indexes start with workspace_id instead
// of user_id (the same walks, migrations 0005 and 0010); the creation-date one by user_id stays for
// a creator's links. workspace_link_totals is kept by triggers as user_link_totals is.
//
// Tags were unique per (user_id, name_key), a table constraint SQLite cannot drop: the table is
// rebuilt with workspace_id in its place (the documented create-copy-drop-rename, with foreign keys
// off meanwhile so link_tags keeps its rows).

const BATCH = 500;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations predate the typed schema
type AnyDb = Kysely<any>;

async function createTables(db: AnyDb): Promise<void> {
  const dialect = dialectOf(db);
  const id = idType(dialect);
  await db.schema
    .createTable('workspaces')
    .addColumn('id', id, idColumn(dialect))
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    // Set for a personal workspace: whose it is (one each).
    .addColumn('personal_user_id', id, (c) => c.unique().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('workspace_members')
    .addColumn('workspace_id', id, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('user_id', id, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('joined_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('workspace_members_pk', ['workspace_id', 'user_id'])
    .execute();
  await db.schema.createIndex('workspace_members_user_id_idx').on('workspace_members').columns(['user_id', 'workspace_id']).execute();
  await db.schema
    .createTable('workspace_invites')
    .addColumn('id', id, idColumn(dialect))
    .addColumn('workspace_id', id, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    // SHA-256 of the invitation's secret; the secret is only in the link.
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_by', id, (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('accepted_at', 'bigint')
    .addColumn('accepted_by', id, (c) => c.references('users.id').onDelete('set null'))
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('workspace_invites_workspace_id_idx').on('workspace_invites').columns(['workspace_id', 'id']).execute();
  await db.schema
    .createTable('workspace_activity')
    .addColumn('id', id, idColumn(dialect))
    .addColumn('workspace_id', id, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    // Who did it; their name is copied, so the entry reads the same after they leave.
    .addColumn('actor_id', id, (c) => c.references('users.id').onDelete('set null'))
    .addColumn('actor_name', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    // What it acted on, as shown: a short address, a member's e-mail, a role.
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('detail', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('workspace_activity_workspace_id_idx').on('workspace_activity').columns(['workspace_id', 'id']).execute();
  await db.schema
    .createTable('workspace_link_totals')
    .addColumn('workspace_id', id, (c) => c.primaryKey().references('workspaces.id').onDelete('cascade'))
    .addColumn('links', 'bigint', (c) => c.notNull())
    .addColumn('clicks', 'bigint', (c) => c.notNull())
    .execute();
}

/** A personal workspace for every user (owner of it), the slug made from their name. */
async function createPersonalWorkspaces(db: AnyDb): Promise<void> {
  const taken = new Set<string>();
  const now = Date.now();
  for (let after = 0; ; ) {
    const users = await db.selectFrom('users').select(['id', 'name']).where('id', '>', after).orderBy('id').limit(BATCH).execute();
    if (users.length === 0) return;
    const rows = users.map((user: { id: number; name: string }) => {
      const base = slugFromName(user.name) || 'espacio';
      let n = 1;
      while (taken.has(slugCandidate(base, n)) || isReservedPath(slugCandidate(base, n))) n += 1;
      const slug = slugCandidate(base, n);
      taken.add(slug);
      return { slug, name: user.name, personal_user_id: user.id, created_at: now };
    });
    await db.insertInto('workspaces').values(rows).execute();
    await sql`insert into workspace_members (workspace_id, user_id, role, joined_at)
      select id, personal_user_id, 'owner', created_at from workspaces
      where personal_user_id in (${sql.join(users.map((user: { id: number }) => user.id))})`.execute(db);
    after = Number(users[users.length - 1]!.id);
  }
}

const PERSONAL_OF_OWNER = (column: string) =>
  sql`(select w.id from workspaces w where w.personal_user_id = ${sql.ref(column)})`;

const SQLITE_TOTALS_TRIGGERS = [
  sql`create trigger urls_workspace_totals_insert after insert on urls when new.workspace_id is not null begin
    insert into workspace_link_totals (workspace_id, links, clicks) values (new.workspace_id, 1, new.click_count)
      on conflict (workspace_id) do update set links = links + 1, clicks = clicks + excluded.clicks;
  end`,
  sql`create trigger urls_workspace_totals_delete after delete on urls when old.workspace_id is not null begin
    update workspace_link_totals set links = links - 1, clicks = clicks - old.click_count where workspace_id = old.workspace_id;
  end`,
  sql`create trigger urls_workspace_totals_clicks after update of click_count on urls
    when old.workspace_id is new.workspace_id and new.workspace_id is not null begin
    update workspace_link_totals set clicks = clicks + new.click_count - old.click_count where workspace_id = new.workspace_id;
  end`,
  sql`create trigger urls_workspace_totals_move after update of workspace_id on urls when old.workspace_id is not new.workspace_id begin
    update workspace_link_totals set links = links - 1, clicks = clicks - old.click_count where workspace_id = old.workspace_id;
    insert into workspace_link_totals (workspace_id, links, clicks) select new.workspace_id, 1, new.click_count where new.workspace_id is not null
      on conflict (workspace_id) do update set links = links + 1, clicks = clicks + excluded.clicks;
  end`,
];

const POSTGRES_TOTALS_TRIGGERS = [
  sql`create function urls_workspace_totals() returns trigger language plpgsql as $$
  begin
    if tg_op = 'UPDATE' and old.workspace_id is not distinct from new.workspace_id then
      update workspace_link_totals set clicks = clicks + new.click_count - old.click_count where workspace_id = new.workspace_id;
      return null;
    end if;
    if tg_op in ('UPDATE', 'DELETE') and old.workspace_id is not null then
      update workspace_link_totals set links = links - 1, clicks = clicks - old.click_count where workspace_id = old.workspace_id;
    end if;
    if tg_op in ('UPDATE', 'INSERT') and new.workspace_id is not null then
      insert into workspace_link_totals as t (workspace_id, links, clicks) values (new.workspace_id, 1, new.click_count)
        on conflict (workspace_id) do update set links = t.links + 1, clicks = t.clicks + excluded.clicks;
    end if;
    return null;
  end $$`,
  sql`create trigger urls_workspace_totals after insert or delete or update of workspace_id, click_count on urls
    for each row execute function urls_workspace_totals()`,
];

async function moveLinksAndTokens(db: AnyDb): Promise<void> {
  const dialect = dialectOf(db);
  await db.schema.alterTable('urls').addColumn('workspace_id', idType(dialect), (c) => c.references('workspaces.id').onDelete('cascade')).execute();
  await sql`update urls set workspace_id = ${PERSONAL_OF_OWNER('urls.user_id')}`.execute(db);
  await db.schema.dropIndex('urls_user_id_clicks_idx').execute();
  await db.schema.dropIndex('urls_user_id_title_idx').execute();
  // The creator last: the dashboard's filter by creator is checked in the index walked, never on
  // the table's rows (a member who made one link in twenty, 21 pages down: 21,000 entries).
  await db.schema.createIndex('urls_workspace_id_created_at_title_idx').on('urls').columns(['workspace_id', 'created_at', 'id', 'title_search', 'user_id']).execute();
  await db.schema.createIndex('urls_workspace_id_clicks_idx').on('urls').columns(['workspace_id', 'click_count', 'id', 'title_search', 'user_id']).execute();
  await db.schema.createIndex('urls_workspace_id_title_idx').on('urls').columns(['workspace_id', 'title_search', 'id', 'user_id']).execute();
  await sql`insert into workspace_link_totals (workspace_id, links, clicks)
    select workspace_id, count(*), coalesce(sum(click_count), 0) from urls group by workspace_id`.execute(db);
  for (const statement of dialect === 'sqlite' ? SQLITE_TOTALS_TRIGGERS : POSTGRES_TOTALS_TRIGGERS) await statement.execute(db);

  await db.schema.alterTable('api_tokens').addColumn('workspace_id', idType(dialect), (c) => c.references('workspaces.id').onDelete('cascade')).execute();
  await sql`update api_tokens set workspace_id = ${PERSONAL_OF_OWNER('api_tokens.user_id')}`.execute(db);
}

async function moveTags(db: AnyDb): Promise<void> {
  const dialect = dialectOf(db);
  const id = idType(dialect);
  if (dialect === 'postgres') {
    await sql`alter table tags drop constraint tags_user_id_name_key_unique`.execute(db);
    await db.schema.alterTable('tags').addColumn('workspace_id', id, (c) => c.references('workspaces.id').onDelete('cascade')).execute();
    await sql`update tags set workspace_id = ${PERSONAL_OF_OWNER('tags.user_id')}`.execute(db);
    await sql`alter table tags alter column workspace_id set not null`.execute(db);
    await db.schema.alterTable('tags').dropColumn('user_id').execute();
    await db.schema.alterTable('tags').addUniqueConstraint('tags_workspace_id_name_key_unique', ['workspace_id', 'name_key']).execute();
    return;
  }
  await db.schema
    .createTable('tags_new')
    .addColumn('id', id, idColumn(dialect))
    .addColumn('workspace_id', id, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', (c) => c.notNull())
    .addUniqueConstraint('tags_workspace_id_name_key_unique', ['workspace_id', 'name_key'])
    .execute();
  await sql`insert into tags_new (id, workspace_id, name, name_key)
    select id, ${PERSONAL_OF_OWNER('tags.user_id')}, name, name_key from tags`.execute(db);
  await db.schema.dropTable('tags').execute();
  await sql`alter table tags_new rename to tags`.execute(db);
}

/** SQLite: foreign keys off around the work (a pragma a transaction ignores), checked before on again. */
async function withSqliteForeignKeysOff(db: AnyDb, work: (db: AnyDb) => Promise<void>): Promise<void> {
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await db.transaction().execute(async (trx: Transaction<unknown>) => {
      await work(trx as AnyDb);
      const broken = await sql`pragma foreign_key_check`.execute(trx);
      if (broken.rows.length > 0) throw new Error(`0021-workspaces: ${broken.rows.length} rows break a foreign key`);
    });
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}

export async function up(db: AnyDb): Promise<void> {
  const work = async (db: AnyDb) => {
    await createTables(db);
    await createPersonalWorkspaces(db);
    await moveLinksAndTokens(db);
    await moveTags(db);
  };
  if (dialectOf(db) === 'sqlite') await withSqliteForeignKeysOff(db, work);
  else await work(db);
}

// No down: a release before this one cannot read links that belong to workspaces; going back means
// restoring the backup taken before the upgrade (docs/production.md, "Upgrading and rolling back").

// Not compatible: the release before it would create links in no workspace.
export const compatibleWithPrevious = false;
