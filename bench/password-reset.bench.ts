// POST /api/auth/password-reset for an address with an account against one without, over real
// HTTP with a real SMTP server receiving the mail: the answer must not tell them apart by its
// time. Interleaved requests, medians and p90 of each and their ratio (1.00 = the same).
// SQLite always; PostgreSQL too with BENCH_DATABASE_URL (or TEST_DATABASE_URL).
import type { AddressInfo } from 'node:net';
import { createTestApp, testDialects } from '../server/test/test-app';
import { startSmtpCapture } from '../server/test/smtp-capture';
import { registerUser } from '../server/test/test-users';

const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const WARM_UP = 20;
const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.floor(values.length * q)] ?? NaN;
const fmt = (n: number) => n.toFixed(3).padStart(8);

if (process.env.BENCH_DATABASE_URL) process.env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL;
const smtp = await startSmtpCapture();
for (const dialect of testDialects) {
  const t = await createTestApp(dialect, { SMTP_URL: smtp.url, AUTH_RATE_LIMIT_IP: '0', AUTH_RATE_LIMIT_EMAIL: '0' });
  const { user } = await registerUser(t.app);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/auth/password-reset`;
  const samples: Record<'account' | 'none', number[]> = { account: [], none: [] };
  for (let i = 0; i < WARM_UP + RUNS; i++) {
    // Alternating which goes first, so neither always follows the other's background work.
    const order: Array<'account' | 'none'> = i % 2 ? ['account', 'none'] : ['none', 'account'];
    for (const who of order) {
      const email = who === 'account' ? user.email : `nadie-${i}@corto.test`;
      const started = performance.now();
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) });
      await response.arrayBuffer();
      if (response.status !== 202) throw new Error(`unexpected ${response.status}`);
      if (i >= WARM_UP) samples[who].push(performance.now() - started);
    }
  }
  const mails = smtp.messages.length;
  console.log(`password-reset on ${dialect}, ${RUNS} requests each (ms):`);
  console.log(`  with an account     median ${fmt(quantile(samples.account, 0.5))}  p90 ${fmt(quantile(samples.account, 0.9))}`);
  console.log(`  without an account  median ${fmt(quantile(samples.none, 0.5))}  p90 ${fmt(quantile(samples.none, 0.9))}`);
  console.log(`  ratio (with / without): median ${(quantile(samples.account, 0.5) / quantile(samples.none, 0.5)).toFixed(2)}, p90 ${(quantile(samples.account, 0.9) / quantile(samples.none, 0.9)).toFixed(2)}; mails so far ${mails}`);
  await t.close();
}
await smtp.close();
