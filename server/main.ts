import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { openDatabase } from './db/database';
import { DataDirLockedError } from './db/data-dir-lock';
import { type MigrationReport, MigrationError, migrateToLatest } from './db/migrate';
import { refreshStoredQrs } from './links/qr-refresh';
import { limitHeapGrowth } from './memory/heap-settings';
import { keepNextTickShape } from './memory/next-tick-shape';
import { sweepOrphans } from './storage/orphan-sweep';

const WRITER_READY_WAIT_MS = 30_000;

async function main() {
  keepNextTickShape();
  limitHeapGrowth();
  const config = loadConfig();
  const database = openDatabase(
    config.databaseUrl ? { kind: 'postgres', url: config.databaseUrl } : { kind: 'sqlite', dataDir: config.dataDir },
  );
  let migrations: MigrationReport;
  try {
    migrations = await migrateToLatest(database.db);
  } catch (error) {
    await database.close();
    throw error;
  }
  const app = await buildApp({ config, database });
  for (const migration of migrations.applied) app.log.info({ migration }, 'migration applied');
  if (!config.publicBaseUrlSet && process.env.NODE_ENV === 'production') {
    // Every short link and QR code made now would name this address for good.
    app.log.warn(
      { publicBaseUrl: config.publicBaseUrl },
      'PUBLIC_BASE_URL is not set: short links and QR codes are made on http://localhost, which no visitor can open; set it to the public address (then `corto qr-refresh` redraws the QR codes made meanwhile)',
    );
  }
  if (migrations.ahead.length > 0) {
    app.log.warn({ migrations: migrations.ahead }, 'the database has migrations of a newer version, marked compatible with this one');
  }

  // The orphan sweep and the QR refresh, started once listening; stopped (between two batches)
  // before the database closes.
  const sweepStop = new AbortController();
  let sweeping: Promise<void> = Promise.resolve();
  let refreshing: Promise<void> = Promise.resolve();

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'stopping: no new connections, finishing what is in flight');
    try {
      sweepStop.abort();
      await app.close();
      await sweeping;
      await refreshing;
      await database.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'error while stopping');
      process.exit(1);
    }
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));

  // A click is safe from a crash once the writer's thread has written it; until the thread has
  // started and loaded its IP database, clicks would only wait in memory. So listen after that
  // (a fraction of a second), or after a while regardless, with the clicks queued meanwhile.
  const writerReady = app.appContext.clickWriter.ready().then(
    () => true,
    (error: unknown) => (app.log.error({ err: error }, 'click writer thread not ready'), false),
  );
  const waited = new Promise<false>((resolve) => setTimeout(resolve, WRITER_READY_WAIT_MS, false).unref());
  if (!(await Promise.race([writerReady, waited]))) app.log.warn('listening before the click writer is ready');

  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    { database: database.dialect, publicBaseUrl: config.publicBaseUrl, web: Boolean(config.webDir) },
    `Corto escucha en ${config.publicBaseUrl}`,
  );

  // Files a crash left behind (a QR or picture whose row was never written, half-written
  // temporary files): removed in the background, so listening never waits on a folder listing.
  // Migration 0011's second half: stored QR PNGs made before scans were counted are made again
  // with ?qr=1, in the background; an interrupted refresh carries on at the next start.
  refreshing = refreshStoredQrs({ db: database.db, storage: app.appContext.storage, config, signal: sweepStop.signal }).then(
    (remade) => {
      if (remade > 0) app.log.info({ remade }, 'stored QR codes made again for scan counting');
    },
    (error: unknown) => {
      if (!sweepStop.signal.aborted) app.log.warn({ err: error }, 'stored QR refresh failed; it is tried again at the next start');
    },
  );
  sweeping = sweepOrphans({ db: database.db, storage: app.appContext.storage, signal: sweepStop.signal }).then(
    (removed) => app.log.info(removed, 'orphan files swept'),
    (error: unknown) => {
      if (!sweepStop.signal.aborted) app.log.warn({ err: error }, 'orphan file sweep failed');
    },
  );
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirLockedError || error instanceof MigrationError) {
    console.error(error.message);
  } else {
    console.error('Corto no pudo arrancar:', error);
  }
  process.exit(1);
});
