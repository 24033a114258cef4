import { type Kysely, type Migration, type MigrationProvider, type MigrationResultSet, Migrator, sql } from 'kysely';
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
import * as heldCodes from './migrations/0017-held-codes';

// Listed here rather than read from a folder, so the bundled server carries its migrations.
const migrations: Record<string, Migration> = {
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
  '0017-held-codes': heldCodes,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

// Migrations see the database without its current types: they are what makes those types true.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function migratorFor(db: Kysely<any>): Promise<Migrator> {
  // Kysely looks for its own tables in every schema unless told which: with one schema per test
  // suite (or per app) it would find another's and skip creating its own.
  const schema =
    dialectOf(db) === 'postgres'
      ? (await sql<{ name: string }>`select current_schema() as name`.execute(db)).rows[0]?.name
      : undefined;
  return new Migrator({ db, provider, ...(schema ? { migrationTableSchema: schema } : {}) });
}

function checked({ error, results }: MigrationResultSet): void {
  const failed = results?.find((result) => result.status === 'Error');
  if (error) {
    throw new Error(`La migración ${failed?.migrationName ?? ''} falló`.trim(), { cause: error });
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function migrateToLatest(db: Kysely<any>): Promise<void> {
  checked(await (await migratorFor(db)).migrateToLatest());
}

/** Up (or down) to the named migration: tests put rows in an older schema and then migrate them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function migrateTo(db: Kysely<any>, name: string): Promise<void> {
  checked(await (await migratorFor(db)).migrateTo(name));
}
