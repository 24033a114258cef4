import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirLockedError, lockDataDir } from './data-dir-lock';

const freshDir = () => mkdtempSync(path.join(tmpdir(), 'corto-lock-'));

// A process that takes the lock when told to ('go' on stdin), says 'locked' or 'refused', and then
// holds what it got until it is killed.
const contender = `
const { lockDataDir } = await import('./server/db/data-dir-lock.ts');
process.stdin.once('data', () => {
  try { lockDataDir(process.argv[1]); console.log('locked'); } catch (error) { console.log(error.constructor.name === 'DataDirLockedError' ? 'refused' : 'error ' + error.message); }
  setInterval(() => {}, 1000);
});
console.log('ready');
`;

interface Contender {
  child: ChildProcess;
  /** The next line the process prints. */
  line(): Promise<string>;
}

function startContender(dir: string): Contender {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', contender, dir], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  let buffered = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
      const line = buffered.slice(0, end).trim();
      buffered = buffered.slice(end + 1);
      const next = waiting.shift();
      if (next) next(line);
      else lines.push(line);
    }
  });
  return {
    child,
    line: () => (lines.length > 0 ? Promise.resolve(lines.shift()!) : new Promise((resolve) => waiting.push(resolve))),
  };
}

describe('lockDataDir', () => {
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) child.kill('SIGKILL');
  });

  async function contenders(dir: string, count: number): Promise<Contender[]> {
    const started = Array.from({ length: count }, () => startContender(dir));
    children.push(...started.map((c) => c.child));
    for (const c of started) expect(await c.line()).toBe('ready');
    return started;
  }

  it('lets exactly one of several simultaneous starts hold the folder, trial after trial', async () => {
    for (let trial = 0; trial < 3; trial += 1) {
      const dir = freshDir();
      const started = await contenders(dir, 4);
      for (const c of started) c.child.stdin!.write('go\n');
      const outcomes = await Promise.all(started.map((c) => c.line()));
      expect(outcomes.filter((o) => o === 'locked')).toHaveLength(1);
      expect(outcomes.filter((o) => o === 'refused')).toHaveLength(3);
      for (const c of started) c.child.kill('SIGKILL');
    }
  });

  it('refuses the folder to this process while another process holds it, naming that process', async () => {
    const dir = freshDir();
    const [holder] = await contenders(dir, 1);
    holder!.child.stdin!.write('go\n');
    expect(await holder!.line()).toBe('locked');
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    expect(() => lockDataDir(dir)).toThrow(`pid ${holder!.child.pid}`);
  });

  it('is free again as soon as the holder is killed, with no stale lock to take over', async () => {
    const dir = freshDir();
    const [holder] = await contenders(dir, 1);
    holder!.child.stdin!.write('go\n');
    expect(await holder!.line()).toBe('locked');
    const exited = new Promise((resolve) => holder!.child.once('exit', resolve));
    holder!.child.kill('SIGKILL');
    await exited;
    const release = lockDataDir(dir);
    release();
  });

  it('refuses a second holder in the same process, and frees the folder on release', () => {
    const dir = freshDir();
    const release = lockDataDir(dir);
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    release();
    const again = lockDataDir(dir);
    again();
  });
});
