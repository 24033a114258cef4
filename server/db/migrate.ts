import { type Kysely, type Migration, type MigrationResultSet, Migrator, sql } from 'kysely';
import { dialectOf } from './dialect';
import * as initial from './migrations/0001-initial';
import * as clickRollups from './migrations/0002-click-rollups';
import * as clicksExportIndex from './migrations/0003-clicks-export-index';
import * as dropClicksTimeIndex from './migrations/0004-drop-clicks-time-index';
import * as linkSearchAndTotals from './migrations/0005-link-search-and-totals';
import * as storedFileIndexes from './migrations/0006-stored-file-indexes';
import * as idempotencyKeys from './migrations/0007-idempotency-keys';
import * as aliasKey from './migrations/0008-alias-key';
import * as livingLinks from './migrations/0009-living-links';
import * as linkTags from './migrations/0010-link-tags';
import * as qrScans from './migrations/0011-qr-scans';
import * as apiTokens from './migrations/0012-api-tokens';
import * as accounts from './migrations/0013-accounts';
import * as operator from './migrations/0014-operator';
import * as trigramSearch from './migrations/0015-trigram-search';
import * as clickBatches from './migrations/0016-click-batches';
import * as emailVerification from './migrations/0017-email-verification';
import * as heldCodes from './migrations/0018-held-codes';
import * as userNameSearch from './migrations/0019-user-name-search';
import * as reportStates from './migrations/0020-report-states';
import * as workspaces from './migrations/0021-workspaces';
import * as domains from './migrations/0022-domains';
import * as rules from './migrations/0023-rules';
import * as webhooks from './migrations/0024-webhooks';
import * as oidc from './migrations/0025-oidc';
import * as linkPreviews from './migrations/0026-link-previews';
import * as webhookClickBatches from './migrations/0027-webhook-click-batches';

/**
 * A migration; `compatibleWithPrevious` when it only expands the schema (a table, a nullable column,
 * an index) so that the release before it runs on the result unchanged (docs/production.md,
 * "Upgrading and rolling back": expand, then contract a release later).
 */
export type CortoMigration = Migration & { compatibleWithPrevious?: boolean };

// Listed here rather than read from a folder, so the bundled server carries its migrations.
const migrations: Record<string, CortoMigration> = {
  '0001-initial': initial,
  '0002-click-rollups': clickRollups,
  '0003-clicks-export-index': clicksExportIndex,
  '0004-drop-clicks-time-index': dropClicksTimeIndex,
  '0005-link-search-and-totals': linkSearchAndTotals,
  '0006-stored-file-indexes': storedFileIndexes,
  '0007-idempotency-keys': idempotencyKeys,
  '0008-alias-key': aliasKey,
  '0009-living-links': livingLinks,
  '0010-link-tags': linkTags,
  '0011-qr-scans': qrScans,
  '0012-api-tokens': apiTokens,
  '0013-accounts': accounts,
  '0014-operator': operator,
  '0015-trigram-search': trigramSearch,
  '0016-click-batches': clickBatches,
  '0017-email-verification': emailVerification,
  '0018-held-codes': heldCodes,
  '0019-user-name-search': userNameSearch,
  '0020-report-states': reportStates,
  '0021-workspaces': workspaces,
  '0022-domains': domains,
  '0023-rules': rules,
  '0024-webhooks': webhooks,
  '0025-oidc': oidc,
  '0026-link-previews': linkPreviews,
  '0027-webhook-click-batches': webhookClickBatches,
};

/**
 * Each migration this version knows and whether the version before it runs on its result. Written
 * by every version that migrates, and read by an older one that finds migrations it does not know:
 * it starts only if each of them is marked compatible there.
 */
const COMPAT_TABLE = 'corto_migration_compat';

export class MigrationError extends Error {}

// Migrations see the database without its current types: they are what makes those types true.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

async function currentSchema(db: AnyDb): Promise<string | undefined> {
  return dialectOf(db) === 'postgres'
    ? (await sql<{ name: string }>`select current_schema() as name`.execute(db)).rows[0]?.name
    : undefined;
}

/** Whether `table` exists in the database's (PostgreSQL: the current schema's) tables. */
async function tableExists(db: AnyDb, table: string): Promise<boolean> {
  const { rows } =
    dialectOf(db) === 'postgres'
      ? await sql<{ found: unknown }>`select to_regclass(quote_ident(current_schema()) || '.' || quote_ident(${table})) as found`.execute(db)
      : await sql<{ found: unknown }>`select name as found from sqlite_master where type = 'table' and name = ${table}`.execute(db);
  return rows[0]?.found != null;
}

/** The migrations recorded as applied (none in a new database). */
async function appliedNames(db: AnyDb): Promise<string[]> {
  if (!(await tableExists(db, 'kysely_migration'))) return [];
  return (await db.selectFrom('kysely_migration').select('name').execute()).map((row: { name: string }) => row.name);
}

export interface SchemaState {
  /** This version's migrations not applied yet. */
  pending: string[];
  /** Applied migrations this version does not know (a newer version's), each marked compatible. */
  ahead: string[];
}

/**
 * Where the database stands against this version's migrations. Refuses (MigrationError, naming
 * them) a database ahead by a migration not marked compatible with the previous version.
 */
export async function schemaState(db: AnyDb): Promise<SchemaState> {
  const applied = await appliedNames(db);
  const unknown = applied.filter((name) => !(name in migrations)).sort();
  let compatible = new Set<string>();
  if (unknown.length > 0 && (await tableExists(db, COMPAT_TABLE))) {
    const rows = await db.selectFrom(COMPAT_TABLE).select('name').where('name', 'in', unknown).where('compatible_with_previous', '=', 1).execute();
    compatible = new Set(rows.map((row: { name: string }) => row.name));
  }
  const refused = unknown.filter((name) => !compatible.has(name));
  if (refused.length > 0) {
    throw new MigrationError(
      `La base de datos tiene ${refused.length === 1 ? 'la migración' : 'las migraciones'} ${refused.join(', ')} de una versión más nueva de Corto, ` +
        'que esta versión no sabe usar: arranca la versión nueva, o restaura la copia de antes de actualizar (docs/production.md, «Rolling back»)',
    );
  }
  return { pending: Object.keys(migrations).filter((name) => !applied.includes(name)).sort(), ahead: unknown };
}

async function migratorFor(db: AnyDb, ahead: string[] = []): Promise<Migrator> {
  // Kysely looks for its own tables in every schema unless told which: with one schema per test
  // suite (or per app) it would find another's and skip creating its own.
  const schema = await currentSchema(db);
  // A newer version's compatible migrations stand in as done (they are), so Kysely's check that
  // every applied migration is known passes.
  const all: Record<string, Migration> = { ...migrations };
  for (const name of ahead) all[name] = { up: async () => {} };
  return new Migrator({ db, provider: { getMigrations: async () => all }, ...(schema ? { migrationTableSchema: schema } : {}) });
}

function checked({ error, results }: MigrationResultSet): string[] {
  const applied = (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName);
  if (error) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName;
    const cause = error instanceof Error ? error.message : String(error);
    const done = applied.length > 0 ? ` (aplicadas antes: ${applied.join(', ')})` : '';
    throw new MigrationError(
      failed ? `La migración ${failed} falló: ${cause}${done}` : `Las migraciones no pudieron empezar: ${cause}`,
      { cause: error },
    );
  }
  return applied;
}

/** Writes whether each migration this version knows leaves a schema the previous version runs on. */
async function recordCompatibility(db: AnyDb): Promise<void> {
  try {
    await db.schema
      .createTable(COMPAT_TABLE)
      .ifNotExists()
      .addColumn('name', 'varchar(255)', (c) => c.primaryKey())
      .addColumn('compatible_with_previous', 'integer', (c) => c.notNull())
      .execute();
  } catch (error) {
    // Two instances creating it at once: PostgreSQL's `if not exists` is not atomic.
    if (!(await tableExists(db, COMPAT_TABLE))) throw error;
  }
  const rows = Object.entries(migrations).map(([name, migration]) => ({ name, compatible_with_previous: migration.compatibleWithPrevious ? 1 : 0 }));
  await db
    .insertInto(COMPAT_TABLE)
    .values(rows)
    .onConflict((conflict) => conflict.column('name').doUpdateSet((eb) => ({ compatible_with_previous: eb.ref('excluded.compatible_with_previous') })))
    .execute();
}

export interface MigrationReport {
  /** Migrations applied now, in order. */
  applied: string[];
  /** A newer version's migrations found applied, all marked compatible with this version. */
  ahead: string[];
}

/**
 * Kysely's migrator looks for its tables by listing every table of every schema. On a PostgreSQL
 * server shared with others, a schema dropped meanwhile makes that listing fail ("schema ... does
 * not exist", seen with the test suites running side by side): before any migration has run, the
 * start is tried again.
 */
const MIGRATION_STARTS = 3;

/** Applies this version's pending migrations; throws a MigrationError naming the one that failed. */
export async function migrateToLatest(db: AnyDb): Promise<MigrationReport> {
  const { ahead } = await schemaState(db);
  let result = await (await migratorFor(db, ahead)).migrateToLatest();
  for (let start = 1; start < MIGRATION_STARTS && result.error && (result.results ?? []).length === 0; start++) {
    await new Promise((resolve) => setTimeout(resolve, 100 * start));
    result = await (await migratorFor(db, ahead)).migrateToLatest();
  }
  const applied = checked(result);
  await recordCompatibility(db);
  return { applied, ahead };
}

/**
 * For the operator's commands, which never migrate (a server of the previous version may be
 * running on the database): refuses a database this version's migrations have not reached.
 */
export async function assertSchemaCurrent(db: AnyDb): Promise<void> {
  const { pending } = await schemaState(db);
  if (pending.length > 0) {
    throw new MigrationError(
      `La base de datos no está al día para esta versión (faltan ${pending.join(', ')}): ` +
        'arranca el servidor de esta versión, que la migra, o ejecuta `corto migrate`; las órdenes nunca migran por su cuenta',
    );
  }
}

/** Up (or down) to the named migration: tests put rows in an older schema and then migrate them. */
export async function migrateTo(db: AnyDb, name: string): Promise<void> {
  checked(await (await migratorFor(db)).migrateTo(name));
}
