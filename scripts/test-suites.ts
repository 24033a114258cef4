// `npm test`'s last step: the unit and API tests (Vitest) and the end-to-end tests (Playwright, after
// the build they test) side by side. They share nothing: Vitest's servers listen on free ports and
// use their own PostgreSQL schemas and folders, Playwright's server its own port and embedded
// database. Much of each suite waits (on servers, databases, the browser), so together they take
// little more than the longer of the two, where one after the other took both.
//
// Each line of output is prefixed with its suite's name; the exit code is non-zero if either failed.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

interface Suite {
  name: string;
  script: string;
}

const suites: Suite[] = [
  { name: 'unit', script: 'test:unit' },
  { name: 'e2e', script: 'test:e2e' },
];

function run({ name, script }: Suite): Promise<{ name: string; code: number; seconds: number }> {
  const started = performance.now();
  const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '0' } });
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => process.stdout.write(`[${name}] ${line}\n`));
  }
  return new Promise((resolve) => {
    child.once('close', (code, signal) => resolve({ name, code: code ?? (signal ? 1 : 0), seconds: (performance.now() - started) / 1000 }));
  });
}

const results = await Promise.all(suites.map(run));
for (const { name, code, seconds } of results) {
  console.log(`${name}: ${code === 0 ? 'passed' : `failed (exit ${code})`} in ${Math.round(seconds)} s`);
}
process.exit(results.every(({ code }) => code === 0) ? 0 : 1);
