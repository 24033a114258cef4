import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// In a child Node with V8's own functions at hand (--allow-natives-syntax) and gc(): a few
// nextTicks, then full collections while nothing is queued (as on an idle server), then nextTicks
// again; V8's print of process.nextTick then shows its literal's caches. %DebugPrint is parsed by
// V8 through new Function (the script's TypeScript never holds it), and prints to a file: to a
// pipe, which Node makes non-blocking, most of it would be lost.
const script = (keep: boolean) => `
  import { keepNextTickShape } from './server/memory/next-tick-shape.ts';
  if (${keep}) keepNextTickShape();
  const debugPrint = new Function('f', '%DebugPrint(f)');
  const ticks = () => { for (let i = 0; i < 100; i++) process.nextTick(() => {}); };
  ticks();
  setTimeout(() => setImmediate(() => {
    gc(); gc(); gc();
    ticks();
    setTimeout(() => debugPrint(process.nextTick), 10);
  }), 10);
`;

function nextTickCaches(keep: boolean): string[] {
  const folder = mkdtempSync(path.join(tmpdir(), 'corto-next-tick-'));
  const file = path.join(folder, 'print.txt');
  const out = openSync(file, 'w');
  try {
    const child = spawnSync(
      process.execPath,
      ['--expose-gc', '--allow-natives-syntax', '--import', 'tsx', '--input-type=module', '-e', script(keep)],
      { stdio: ['ignore', out, 'pipe'], encoding: 'utf8' },
    );
    expect(child.status, child.stderr).toBe(0);
    return readFileSync(file, 'utf8').match(/DefineKeyedOwnPropertyInLiteral \w+/g) ?? [];
  } finally {
    closeSync(out);
    rmSync(folder, { recursive: true, force: true });
  }
}

// The literal and V8's print are Node 20's (server/memory/next-tick-shape.ts).
describe.runIf(process.versions.node.startsWith('20.'))("process.nextTick's literal after full collections with nothing queued", () => {
  it('turns megamorphic without the kept shape (what the server avoids)', () => {
    expect(nextTickCaches(false)).toContain('DefineKeyedOwnPropertyInLiteral MEGAMORPHIC');
  });

  it('stays monomorphic, key after key, with it', () => {
    const caches = nextTickCaches(true);
    expect(caches.length).toBeGreaterThanOrEqual(4);
    expect(caches.filter((cache) => cache !== 'DefineKeyedOwnPropertyInLiteral MONOMORPHIC')).toEqual([]);
  });
});
