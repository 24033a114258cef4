import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { migrateToLatest } from '../db/migrate';
import { openTestDatabase } from '../test/test-app';
import { TRUST_EVERY_PROXY_WARNING } from './client-address';

/** The JSON lines a server built with this TRUST_PROXY writes while it starts. */
async function startLines(trustProxy: string): Promise<Array<{ level: number; msg: string }>> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'corto-trust-'));
  const { database, drop } = await openTestDatabase('sqlite', dataDir);
  await migrateToLatest(database.db);
  const lines: string[] = [];
  const config = { ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'info', TRUST_PROXY: trustProxy }), webDir: undefined };
  const app = await buildApp({ config, database, logStream: { write: (line: string) => void lines.push(line) } });
  await app.ready();
  await app.close();
  await database.close();
  await drop();
  await rm(dataDir, { recursive: true, force: true });
  return lines.map((line) => JSON.parse(line) as { level: number; msg: string });
}

describe('TRUST_PROXY at start', () => {
  it('warns once, at warn level, that TRUST_PROXY=true lets any client forge its address', async () => {
    const warnings = (await startLines('true')).filter((line) => line.msg === TRUST_EVERY_PROXY_WARNING);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.level).toBe(40);
    expect(warnings[0]!.msg).toContain('X-Forwarded-For');
    expect(warnings[0]!.msg).toContain('TRUST_PROXY=1');
  });

  it('says nothing of the kind for a hop count, the safe choice', async () => {
    const lines = await startLines('1');
    expect(lines.some((line) => line.msg.includes('X-Forwarded-For'))).toBe(false);
  });
});
