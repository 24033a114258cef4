import { sql } from 'kysely';
import type { Database } from '../db/database';

// PostgreSQL test apps reuse the schemas of the test file's earlier apps: emptied, one is ready in
// a fraction of the time a new schema takes to migrate (about 0.05 s against 0.4 s, hundreds of apps a
// run). Vitest's per-file set-up turns this on and drops what is left after the file's last test;
// anything else (a bench) keeps getting a new schema for every app, dropped with it.

let emptied: string[] | undefined;

/** Schemas given back from now on are kept for the next app, until dropReusedSchemas(). */
export function reuseSchemas(): void {
  emptied ??= [];
}

/** A migrated schema no app is using, emptied, if one was given back. */
export function takeEmptiedSchema(): string | undefined {
  return emptied?.pop();
}

// Tables the migrations fill and an app never writes to: their rows stay.
const migrationTables = new Set(['kysely_migration', 'kysely_migration_lock', 'corto_migration_compat']);

// What a test may have changed beyond rows (a trigger it added to make writes fail, a column):
// counted here, a schema that differs from a freshly migrated one is dropped, never reused.
const shapeQuery = sql<{ shape: string }>`
  select (select count(*) from pg_class where relnamespace = current_schema()::regnamespace)
       + (select count(*) from pg_attribute a join pg_class c on c.oid = a.attrelid
          where c.relnamespace = current_schema()::regnamespace and a.attnum > 0 and not a.attisdropped)
       + (select count(*) from pg_trigger t join pg_class c on c.oid = t.tgrelid where c.relnamespace = current_schema()::regnamespace)
       + (select count(*) from pg_proc where pronamespace = current_schema()::regnamespace) as shape`;

// Noted from the first schema migrated here: every schema of that shape has these tables.
let fresh: { shape: string; tables: string[] } | undefined;

/** Notes the shape and tables of a schema every migration has just run on (once a process is enough). */
export async function noteFreshSchema(db: Database): Promise<void> {
  if (!emptied || fresh) return;
  const shape = (await shapeQuery.execute(db)).rows[0]!.shape;
  const tables = (await sql<{ name: string }>`select tablename as name from pg_tables where schemaname = current_schema()`.execute(db)).rows
    .map(({ name }) => name)
    .filter((name) => !migrationTables.has(name));
  fresh = { shape, tables };
}

/**
 * Empties the schema of an app that has closed (its rows gone, its sequences back to 1) and keeps it
 * for the next app; false when reuse is off or the schema is not as migrated, to be dropped instead.
 */
export async function emptyForReuse(db: Database, schema: string): Promise<boolean> {
  if (!emptied || !fresh) return false;
  const { shape, tables } = fresh;
  try {
    if ((await shapeQuery.execute(db)).rows[0]!.shape !== shape) return false;
    // Most tables of a test are still empty, and a few rows go faster by delete than by truncate,
    // which writes new files. In replica mode (a superuser's) no foreign key or trigger fires, so
    // the order does not matter; without the right, the schema is dropped instead.
    const filled = (
      await sql<{ name: string }>`${sql.join(
        tables.map((name) => sql`select ${name}::text as name where exists (select 1 from ${sql.table(name)})`),
        sql` union all `,
      )}`.execute(db)
    ).rows.map(({ name }) => name);
    await db.transaction().execute(async (trx) => {
      await sql`set local session_replication_role = replica`.execute(trx);
      for (const name of filled) await sql`delete from ${sql.table(name)}`.execute(trx);
    });
    await sql`select setval(c.oid, 1, false) from pg_class c where c.relkind = 'S' and c.relnamespace = current_schema()::regnamespace`.execute(db);
  } catch {
    return false;
  }
  emptied.push(schema);
  return true;
}

/** Drops every schema kept for reuse. */
export async function dropReusedSchemas(drop: (schema: string) => Promise<void>): Promise<void> {
  const schemas = emptied ?? [];
  emptied = undefined;
  for (const schema of schemas) await drop(schema);
}
