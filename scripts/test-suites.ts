// `npm test`: lint and typecheck, the unit and API tests (Vitest) and the end-to-end tests
// (Playwright, after the build they test), in two lanes side by side. They share nothing:
// Vitest's servers listen on free ports and use their own PostgreSQL schemas and folders,
// Playwright's server its own port and embedded database. Much of each suite waits (on servers,
// databases, the browser), so together they take little more than the longer lane, where one
// after the other took them all. The unit tests are the longer lane: lint and typecheck go before
// the end-to-end tests, in the lane that has time to spare.
//
// Each line of output is prefixed with its script's name; the exit code is non-zero if any failed.
// A lane stops at its first failure.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const lanes: string[][] = [['test:unit'], ['lint', 'typecheck', 'test:e2e']];

const prefix = (script: string) => script.replace(/^test:/, '');

interface Result {
  script: string;
  code: number;
  seconds: number;
}

function run(script: string): Promise<Result> {
  const started = performance.now();
  const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '0' } });
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => process.stdout.write(`[${prefix(script)}] ${line}\n`));
  }
  return new Promise((resolve) => {
    child.once('close', (code, signal) => resolve({ script, code: code ?? (signal ? 1 : 0), seconds: (performance.now() - started) / 1000 }));
  });
}

async function runLane(scripts: string[]): Promise<Result[]> {
  const results: Result[] = [];
  for (const script of scripts) {
    const result = await run(script);
    results.push(result);
    if (result.code !== 0) break;
  }
  return results;
}

const results = (await Promise.all(lanes.map(runLane))).flat();
for (const { script, code, seconds } of results) {
  console.log(`${prefix(script)}: ${code === 0 ? 'passed' : `failed (exit ${code})`} in ${Math.round(seconds)} s`);
}
const ran = new Set(results.map(({ script }) => script));
for (const script of lanes.flat().filter((script) => !ran.has(script))) console.log(`${prefix(script)}: not run (an earlier step of its lane failed)`);
process.exit(results.every(({ code }) => code === 0) && ran.size === lanes.flat().length ? 0 : 1);
