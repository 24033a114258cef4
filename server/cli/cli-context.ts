import { type Config, loadConfig } from '../config';
import { type DatabaseHandle, openDatabase } from '../db/database';
import { assertSchemaCurrent } from '../db/migrate';

export interface CliContext {
  config: Config;
  database: DatabaseHandle;
  close(): Promise<void>;
}

/**
 * The install the environment describes (DATABASE_URL or DATA_DIR), which must be migrated for this
 * version already: a command never migrates (a server of the previous version may be serving on it
 * during an upgrade; `corto migrate` does it on purpose). A command may run beside a serving
 * instance: on SQLite it does not take the instance lock, and SQLite's own locking keeps the two
 * writers apart.
 */
export async function openInstall(env: NodeJS.ProcessEnv = process.env): Promise<CliContext> {
  const config = loadConfig(env);
  const database = openDatabase(
    config.databaseUrl
      ? { kind: 'postgres', url: config.databaseUrl }
      : { kind: 'sqlite', dataDir: config.dataDir, beside: true },
  );
  try {
    await assertSchemaCurrent(database.db);
  } catch (error) {
    await database.close();
    throw error;
  }
  return { config, database, close: () => database.close() };
}
