import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, startNode } from '../../bench/lib/processes';
import { buildServer } from '../../scripts/build-server';
import { redisReachable, testRedisUrl } from '../test/redis';

// What a start reads before it listens is what it costs (docs/operator.md, "Start and memory"):
// Node's fetch (undici) and ioredis are left for the installs and requests that use them.

/** Written by the server process as it exits: whether it had loaded Node's fetch and ioredis. */
const REPORT_LOADED = `
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
process.on('exit', () => {
  // One cache for every require of the process.
  const cache = Object.keys(createRequire(process.cwd() + '/').cache);
  writeFileSync(process.env.LOADED_REPORT, JSON.stringify({
    fetch: process.moduleLoadList.some((name) => name.includes('undici')),
    ioredis: cache.some((file) => file.includes('/node_modules/ioredis/')),
  }));
});`;

describe('a start of the production bundle', () => {
  let bundle = '';
  const folders: string[] = [];
  beforeAll(async () => {
    // Inside the repository (its packages resolve from node_modules), not in dist/, which other tests share.
    mkdirSync(path.join(repoRoot, 'bench/results'), { recursive: true });
    const outdir = mkdtempSync(path.join(repoRoot, 'bench/results/unit-'));
    folders.push(outdir);
    await buildServer(outdir);
    bundle = path.join(outdir, 'main.js');
  }, 120_000);
  afterAll(() => {
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });

  /** Starts the bundle, waits for its readiness answer, stops it, and says what it had loaded. */
  async function loadedBy(env: Record<string, string>): Promise<{ fetch: boolean; ioredis: boolean; health: unknown }> {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'corto-start-'));
    folders.push(dataDir);
    const report = path.join(dataDir, 'loaded.json');
    const server = await startNode(bundle, { ...env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn', LOADED_REPORT: report }, '/api/health/ready', [
      '--import',
      `data:text/javascript,${encodeURIComponent(REPORT_LOADED)}`,
    ]);
    const health: unknown = await (await fetch(`http://127.0.0.1:${server.port}/api/health/ready`)).json();
    await server.stop();
    return { ...(JSON.parse(readFileSync(report, 'utf8')) as { fetch: boolean; ioredis: boolean }), health };
  }

  it('without REDIS_URL, listens without having loaded Node\'s fetch or ioredis', async () => {
    const loaded = await loadedBy({});
    expect(loaded).toMatchObject({ fetch: false, ioredis: false });
  }, 60_000);

  it('with REDIS_URL, loads ioredis from node_modules and reaches Redis', async (context) => {
    if (!(await redisReachable())) context.skip();
    const loaded = await loadedBy({ REDIS_URL: testRedisUrl });
    expect(loaded.ioredis).toBe(true);
    expect(loaded.health).toMatchObject({ status: 'ok', checks: { redis: 'ok' } });
  }, 60_000);
});
