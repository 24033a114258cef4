import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort, repoRoot } from '../bench/lib/processes';
import { type ProcessDatabase, processDatabase, until } from './reliability/server-process';
import { entryArgs } from './test/server-build';

// A production start without PUBLIC_BASE_URL makes every short link and QR code on
// http://localhost, for good: the server says so at start, loudly.

/** The server's log from its start until it listens. */
async function startLog(database: ProcessDatabase, publicBaseUrl: string): Promise<string> {
  const child = spawn(process.execPath, entryArgs('main'), {
    cwd: repoRoot,
    env: { ...process.env, NODE_ENV: 'production', PUBLIC_BASE_URL: publicBaseUrl, LOG_LEVEL: 'info', DATA_DIR: database.dataDir, DATABASE_URL: '', HOST: '127.0.0.1', PORT: String(await freePort()) },
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    await until(() => output.includes('Corto escucha en'), 'the server listening', { limitMs: 50_000 });
    return output;
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

describe('PUBLIC_BASE_URL at a production start', { timeout: 120_000 }, () => {
  let database: ProcessDatabase;
  afterEach(async () => database?.drop());

  it('warns when it is unset, and not when it is set', async () => {
    database = await processDatabase('sqlite');
    expect(await startLog(database, '')).toMatch(/"level":40,.*PUBLIC_BASE_URL is not set/);
    expect(await startLog(database, 'https://corto.example')).not.toContain('PUBLIC_BASE_URL is not set');
  });
});
