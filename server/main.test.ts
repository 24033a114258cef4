import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../bench/lib/processes';
import { entryArgs } from './test/server-build';

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function start(env: Record<string, string>): Started {
  const child = spawn(process.execPath, entryArgs('main'), {
    env: { ...process.env, LOG_LEVEL: 'warn', HOST: '127.0.0.1', DATABASE_URL: '', ...env },
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function waitForHealth(port: number, started: Started) {
  for (;;) {
    const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then((r) => r.ok, () => false);
    if (ok) return;
    if (started.child.exitCode !== null) throw new Error(`server exited: ${started.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('the server process', () => {
  const running: ChildProcess[] = [];
  afterEach(() => {
    for (const child of running) child.kill('SIGKILL');
  });

  it('starts with nothing but a data folder, refuses a second process on it, and stops cleanly on SIGTERM', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'corto-main-'));
    const port = await freePort();
    const first = start({ DATA_DIR: dataDir, PORT: String(port) });
    running.push(first.child);
    await waitForHealth(port, first);

    const second = start({ DATA_DIR: dataDir, PORT: String(await freePort()) });
    running.push(second.child);
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain('Otro proceso de Corto');

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
  });

  it('lets exactly one of two servers started at the same moment on one data folder run', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'corto-main-'));
    const ports = [await freePort(), await freePort()];
    const both = ports.map((port) => start({ DATA_DIR: dataDir, PORT: String(port) }));
    running.push(...both.map((started) => started.child));
    // The loser exits with the message; the winner keeps serving.
    const loser = await Promise.race(both.map((started, index) => started.exited.then(() => index)));
    const winner = 1 - loser;
    expect(await both[loser]!.exited).toBe(1);
    expect(both[loser]!.output()).toContain('Otro proceso de Corto');
    await waitForHealth(ports[winner]!, both[winner]!);
    expect(both[winner]!.child.exitCode).toBeNull();
    both[winner]!.child.kill('SIGTERM');
    expect(await both[winner]!.exited).toBe(0);
  });

  it('refuses a bad setting at start with a message naming it', async () => {
    const started = start({ DATA_DIR: mkdtempSync(path.join(tmpdir(), 'corto-main-')), PORT: 'ochenta' });
    running.push(started.child);
    expect(await started.exited).toBe(1);
    expect(started.output()).toContain('Configuración no válida');
    expect(started.output()).toContain('PORT');
  });
});
