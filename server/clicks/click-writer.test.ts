import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import { clickCount, insertLink } from '../redirect/redirect.test-support';
import { createClickWriter } from './click-writer';
import { postgresSchema } from '../test/postgres-schema';
import { openScratchDatabase, testDialects } from '../test/test-app';
import { switchableRelay } from './clicks.test-support';
import { openGeo } from './geo';

// The writer against a database that goes away and comes back: nothing queued may be lost,
// and beyond the queue's limit new clicks are shed and counted.

const log = pino({ level: 'silent' });
const visit = (urlId: number) => ({ urlId, at: Date.now(), ip: '127.0.0.1', userAgent: undefined, referrer: undefined });

describe.runIf(process.env.TEST_DATABASE_URL)('the click writer when PostgreSQL goes away', () => {
  const cleanup: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step();
  });

  it('holds the queue while the database is unreachable, sheds beyond its limit, and writes the rest when it is back', async () => {
    const url = new URL(process.env.TEST_DATABASE_URL!);
    const { schema, drop } = await postgresSchema(url.href);
    cleanup.push(drop);
    const direct = openDatabase({ kind: 'postgres', url: url.href, schema });
    cleanup.push(() => direct.close());
    await migrateToLatest(direct.db);
    const link = await insertLink(direct.db);

    const relay = await switchableRelay(url.hostname, Number(url.port || 5432));
    cleanup.push(relay.close);
    const relayed = new URL(url.href);
    relayed.port = String(relay.port);
    const database: DatabaseHandle = openDatabase({ kind: 'postgres', url: relayed.href, schema });
    cleanup.push(() => database.close());
    const writer = createClickWriter({ database, geo: openGeo(log), log, flushMs: 50, queueLimit: 1000 });
    cleanup.push(() => writer.close());

    for (let i = 0; i < 10; i++) writer.record(visit(link.id));
    await writer.flush();
    expect(await clickCount(direct.db, link.id)).toBe(10);

    relay.down();
    for (let i = 0; i < 1020; i++) writer.record(visit(link.id));
    await expect(writer.flush()).rejects.toThrow();
    expect(writer.stats()).toMatchObject({ queued: 1000, shed: 20 });
    expect(await clickCount(direct.db, link.id)).toBe(10);

    relay.up();
    await writer.flush();
    expect(writer.stats()).toMatchObject({ queued: 0, written: 1010, shed: 20 });
    expect(await clickCount(direct.db, link.id)).toBe(1010);
  });
});

describe('the click writer when SQLite is locked by another writer', () => {
  it('keeps the clicks while the lock is held and writes them once it is released', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'corto-writer-'));
    const database = openDatabase({ kind: 'sqlite', dataDir });
    await migrateToLatest(database.db);
    const link = await insertLink(database.db);
    const writer = createClickWriter({ database, geo: openGeo(log), log, flushMs: 50, queueLimit: 1000 });
    try {
      const other = new SQLite(path.join(dataDir, 'corto.db'));
      other.exec('begin exclusive'); // the writer's thread waits out its busy timeout, then gives up
      for (let i = 0; i < 5; i++) writer.record(visit(link.id));
      await expect(writer.flush()).rejects.toThrow();
      expect(writer.stats().queued).toBe(5);
      other.exec('commit');
      other.close();
      await writer.flush();
      expect(await clickCount(database.db, link.id)).toBe(5);
    } finally {
      await writer.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe.each(testDialects)('the click writer when %s refuses one click as data', (dialect) => {
  it('halves the batch until only that click is dropped, and writes every other one', async () => {
    const scratch = await openScratchDatabase(dialect);
    const { database } = scratch;
    await migrateToLatest(database.db);
    const link = await insertLink(database.db);
    const writer = createClickWriter({ database, geo: openGeo(log), log, flushMs: 60_000, queueLimit: 1000 });
    try {
      for (let i = 0; i < 37; i++) writer.record(i === 23 ? { ...visit(link.id), at: Number.NaN } : visit(link.id));
      await writer.flush();
      expect(writer.stats()).toMatchObject({ queued: 0, written: 36, rejected: 1 });
      expect(await clickCount(database.db, link.id)).toBe(36);
      const rows = await database.db.selectFrom('clicks').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      expect(Number(rows.n)).toBe(36);
    } finally {
      await writer.close();
      await scratch.close();
    }
  });
});

describe.each(testDialects)('the click writer stopping on %s', (dialect) => {
  it('says when its drain ends, with the clicks it wrote', async () => {
    const scratch = await openScratchDatabase(dialect);
    const { database } = scratch;
    await migrateToLatest(database.db);
    const link = await insertLink(database.db);
    const lines: Array<Record<string, unknown>> = [];
    const captured = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const writer = createClickWriter({ database, geo: openGeo(log), log: captured, flushMs: 60_000, queueLimit: 1000 });
    try {
      for (let i = 0; i < 3; i++) writer.record(visit(link.id));
      await writer.flush();
      for (let i = 0; i < 25; i++) writer.record(visit(link.id));
      await writer.close();
      const drained = lines.filter((line) => line.msg === 'click writer: drained, every queued click written');
      expect(drained).toHaveLength(1);
      expect(drained[0]).toMatchObject({ level: 30, drained: 25, written: 28 });
      expect(drained[0]!.ms).toBeTypeOf('number');
      expect(await clickCount(database.db, link.id)).toBe(28);
    } finally {
      await scratch.close();
    }
  });
});
