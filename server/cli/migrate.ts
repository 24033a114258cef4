import type { Command } from 'commander';
import { loadConfig } from '../config';
import { openDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrate';

/**
 * `corto migrate`: the schema brought to this version, as a server's start does; for an upgrade
 * done by hand (the other commands never migrate). Prints each migration applied.
 */
export function registerMigrate(program: Command): void {
  program
    .command('migrate')
    .description('Aplica las migraciones pendientes de esta versión (lo mismo que hace el servidor al arrancar)')
    .action(async () => {
      const config = loadConfig();
      const database = openDatabase(
        config.databaseUrl ? { kind: 'postgres', url: config.databaseUrl } : { kind: 'sqlite', dataDir: config.dataDir, beside: true },
      );
      try {
        const { applied, ahead } = await migrateToLatest(database.db);
        for (const name of applied) console.log(`Migración aplicada: ${name}`);
        if (ahead.length > 0) console.log(`La base de datos ya tiene migraciones de una versión más nueva, compatibles con esta: ${ahead.join(', ')}`);
        if (applied.length === 0) console.log('La base de datos ya estaba al día.');
      } finally {
        await database.close();
      }
    });
}
