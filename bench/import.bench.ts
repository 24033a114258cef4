// POST /api/links/import of 10,000 rows (SQLite, in process): how long it takes, the event loop's
// longest stall meanwhile (monitorEventLoopDelay), and the redirect p99 while it runs against
// redirects alone, in the same run. Targets: under 30 s, no stall over 50 ms.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db/database';
import { migrateToLatest } from '../server/db/migrate';
import { multipart, registerUser, sameOrigin } from '../server/test/test-users';
import { load } from './lib/load';

const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 10_000);
const SECONDS = 5;

const dataDir = await mkdtemp(path.join(tmpdir(), 'corto-import-bench-'));
const handle = openDatabase({ kind: 'sqlite', dataDir });
await migrateToLatest(handle.db);
const config = { ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', HOST: '127.0.0.1', LINKS_PER_HOUR: '0' }), webDir: undefined };
const app = await buildApp({ config, database: handle });
try {
  const { cookie } = await registerUser(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  const base = `http://127.0.0.1:${port}`;
  const first = await app.inject({ method: 'POST', url: '/api/links', headers: { cookie, ...sameOrigin }, payload: { title: 'Destino', longUrl: 'https://example.com/' } });
  const redirectUrl = `${base}/${first.json().link.shortCode}`;

  const lines = ['title,longUrl,customUrl,tags'];
  for (let n = 0; n < ROWS; n++) lines.push(`Importado ${n},https://example.com/articulo/${n},,lote|${n % 10 === 0 ? 'decena' : 'resto'}`);
  const body = await multipart({ file: { bytes: Buffer.from(lines.join('\n')), filename: 'links.csv', type: 'text/csv' } });

  await load(redirectUrl, 10, 1); // warm-up
  const alone = await load(redirectUrl, 10, SECONDS);

  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const started = performance.now();
  const importing = fetch(`${base}/api/links/import`, {
    method: 'POST',
    headers: { cookie, ...sameOrigin, ...body.headers },
    body: body.payload,
  }).then(async (response) => ({ status: response.status, body: (await response.json()) as { created: number; failed: unknown[] }, ms: performance.now() - started }));
  const beside = await load(redirectUrl, 10, SECONDS);
  const result = await importing;
  delay.disable();

  if (result.status !== 200) throw new Error(`import answered ${result.status}`);
  console.log(`import of ${ROWS.toLocaleString('en')} rows: ${(result.ms / 1000).toFixed(1)} s, created ${result.body.created}, failed ${result.body.failed.length}`);
  console.log(`event loop during the import: max delay ${(delay.max / 1e6).toFixed(1)} ms, p99 ${(delay.percentile(99) / 1e6).toFixed(1)} ms (target: max <= 50 ms)`);
  console.log(`redirects alone:                ${alone.rps.toFixed(0)} req/s, p99 ${alone.p99ms.toFixed(1)} ms`);
  console.log(`redirects beside the import:    ${beside.rps.toFixed(0)} req/s, p99 ${beside.p99ms.toFixed(1)} ms (${(beside.p99ms / alone.p99ms).toFixed(2)}x alone)`);
} finally {
  await app.close();
  await handle.close();
}
