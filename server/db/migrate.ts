import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
import * as initial from './migrations/0001-initial';
import * as clickRollups from './migrations/0002-click-rollups';

// Listed here rather than read from a folder, so the bundled server carries its migrations.
const migrations: Record<string, Migration> = {
  '0001-initial': initial,
  '0002-click-rollups': clickRollups,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

// Migrations see the database without its current types: they are what makes those types true.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function migrateToLatest(db: Kysely<any>): Promise<void> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error) {
    throw new Error(`La migración ${failed?.migrationName ?? ''} falló`.trim(), { cause: error });
  }
}
