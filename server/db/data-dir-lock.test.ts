import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataDirLockedError, lockDataDir } from './data-dir-lock';

const freshDir = () => mkdtempSync(path.join(tmpdir(), 'corto-lock-'));

/** The pid of a process that has certainly exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid!;
}

describe('lockDataDir', () => {
  it('refuses a second holder while a live process holds the folder', async () => {
    const dir = freshDir();
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      writeFileSync(path.join(dir, 'corto.lock'), String(holder.pid));
      expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
      expect(() => lockDataDir(dir)).toThrow(`pid ${holder.pid}`);
    } finally {
      holder.kill();
    }
  });

  it('takes over a lock left by a process that died', async () => {
    const dir = freshDir();
    writeFileSync(path.join(dir, 'corto.lock'), String(await deadPid()));
    const release = lockDataDir(dir);
    release();
    expect(existsSync(path.join(dir, 'corto.lock'))).toBe(false);
  });

  it('frees the folder on release, so it can be locked again', () => {
    const dir = freshDir();
    lockDataDir(dir)();
    const again = lockDataDir(dir);
    expect(existsSync(path.join(dir, 'corto.lock'))).toBe(true);
    again();
  });
});
