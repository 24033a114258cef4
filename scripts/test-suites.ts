// `npm test`: lint and typecheck, the unit and API tests (Vitest) and the end-to-end tests
// (Playwright, after the build they test), in two lanes side by side. Much of each suite waits (on
// servers, databases, the browser), so together they take little more than the longer lane.
//
// - The unit lane runs Vitest on every folder but the movable ones below, then takes those.
// - The other lane runs lint, typecheck and the end-to-end tests, then takes movable folders too:
//   the end-to-end tests finish first (before, the unit lane then ran alone, on one core of two).
//   Either lane takes the longest folder left (the queue is longest first), so they end close.
// Only folders whose tests use neither Redis nor a fixed port move: two Vitest runs at once would
// share the first (a rate limit counting the other run's requests). Each run is a whole Vitest run
// (its global set-up included), on its own PostgreSQL schemas and folders like any test file.
//
// Each line of output is prefixed with its step's name; the exit code is non-zero if any failed.
// The end-to-end lane stops at its first failure.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

// Longest first (seconds in a CI run: 213, 68, 67, 48, 42, 29, 29, 29).
const movable = ['server/links/', 'server/auth/', 'server/db/', 'server/cli/', 'server/clicks/', 'server/previews/', 'server/openapi/', 'server/stats/'];

interface Step {
  name: string;
  command: string[];
}

interface Result {
  name: string;
  code: number;
  seconds: number;
}

const npmScript = (script: string): Step => ({ name: script, command: ['npm', 'run', '--silent', script] });
const vitest = (name: string, args: string[]): Step => ({ name, command: ['npx', 'vitest', 'run', ...args] });

function run({ name, command: [file, ...args] }: Step): Promise<Result> {
  const started = performance.now();
  const child = spawn(file!, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '0' } });
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => process.stdout.write(`[${name}] ${line}\n`));
  }
  return new Promise((resolve) => {
    child.once('close', (code, signal) => resolve({ name, code: code ?? (signal ? 1 : 0), seconds: (performance.now() - started) / 1000 }));
  });
}

const e2eLane = ['lint', 'typecheck', 'test:e2e'];
const queue = [...movable];
const results: Result[] = [];
const runs = async (step: Step) => {
  const result = await run(step);
  results.push(result);
  return result.code === 0;
};
const takeMovable = async () => {
  for (let folder = queue.shift(); folder; folder = queue.shift()) await runs(vitest(`unit ${folder}`, [folder]));
};

await Promise.all([
  (async () => {
    await runs(vitest('unit', movable.flatMap((folder) => ['--exclude', `${folder}**`])));
    await takeMovable();
  })(),
  (async () => {
    for (const script of e2eLane) if (!(await runs(npmScript(script)))) return;
    await takeMovable();
  })(),
]);

for (const { name, code, seconds } of results) console.log(`${name}: ${code === 0 ? 'passed' : `failed (exit ${code})`} in ${Math.round(seconds)} s`);
const ran = new Set(results.map(({ name }) => name));
const skipped = e2eLane.filter((name) => !ran.has(name));
for (const name of skipped) console.log(`${name}: not run (an earlier step of its lane failed)`);
process.exit(results.every(({ code }) => code === 0) && skipped.length === 0 ? 0 : 1);
