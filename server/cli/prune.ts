// `corto prune`: raw clicks older than CLICK_RETENTION_DAYS go; the daily roll-ups (what the
// statistics read) and each link's click count stay as they are. Deleted a batch at a time, so
// a serving instance's click writer never waits long for the database.
import type { Command } from 'commander';
import type { Database } from '../db/database';
import { openInstall } from './cli-context';

const BATCH = 5000;
const DAY_MS = 24 * 60 * 60 * 1000;

export class PruneError extends Error {}

/** Deletes clicks recorded before `now - days`; returns how many. */
export async function pruneClicks(db: Database, days: number, now = Date.now()): Promise<number> {
  const before = now - days * DAY_MS;
  let removed = 0;
  for (;;) {
    // Oldest first by id (the primary key), so each batch finds its rows at the start of the table.
    const result = await db
      .deleteFrom('clicks')
      .where('id', 'in', (eb) => eb.selectFrom('clicks').select('id').where('created_at', '<', before).orderBy('id').limit(BATCH))
      .executeTakeFirst();
    const count = Number(result.numDeletedRows);
    removed += count;
    if (count < BATCH) return removed;
  }
}

export const registerPrune = (program: Command) => {
  program
    .command('prune')
    .description('Borra los clics individuales más antiguos que CLICK_RETENTION_DAYS; las estadísticas diarias y los totales se conservan')
    .action(async () => {
      const install = await openInstall();
      try {
        const days = install.config.clickRetentionDays;
        if (days === undefined) throw new PruneError('Define CLICK_RETENTION_DAYS (días de clics individuales que se guardan)');
        const removed = await pruneClicks(install.database.db, days);
        console.log(`${removed} clics de hace más de ${days} días borrados; las estadísticas no cambian.`);
      } finally {
        await install.close();
      }
    });
};
