import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../admin/admin-test-support';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { migrateToLatest } from '../db/migrate';
import { REDACTED } from '../http/log-redaction';
import { startSmtpCapture, type SmtpCapture } from '../test/smtp-capture';
import { openTestDatabase, testDialects } from '../test/test-app';
import { registerUser } from '../test/test-users';

// A listening server at the most talkative level, its log read back: no confirmation link's token
// (the sign-up's, a change of address's) reaches a log line, whether the link is opened, used, or
// its mail could not be sent.

const linkPattern = /https?:\/\/\S+\/auth\/verificar\?token=([\w-]+)/;

async function loggedApp(dialect: 'sqlite' | 'postgres', smtpUrl: string) {
  const logs: string[] = [];
  const dataDir = await mkdtemp(path.join(tmpdir(), 'corto-mail-logs-'));
  const { database, drop } = await openTestDatabase(dialect, dataDir);
  await migrateToLatest(database.db);
  const config = { ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'trace', SMTP_URL: smtpUrl, AUTH_RATE_LIMIT_IP: '0' }), webDir: undefined };
  const app: FastifyInstance = await buildApp({ config, database, logStream: { write: (line: string) => void logs.push(line) } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    app,
    base,
    log: () => logs.join(''),
    async close() {
      await app.close();
      await database.close();
      await drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

describe.each(testDialects)('confirmation tokens and the log on %s', (dialect) => {
  let smtp: SmtpCapture;
  let t: Awaited<ReturnType<typeof loggedApp>>;
  beforeAll(async () => {
    smtp = await startSmtpCapture();
    t = await loggedApp(dialect, smtp.url);
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const tokenIn = (mail: { text?: string }) => mail.text!.match(linkPattern)![1]!;

  it('never writes the token of a sign-up link or of a change of address, opened or used', async () => {
    const me = await registerUser(t.app);
    const signUpToken = tokenIn(await smtp.next());
    const next = `registro-logs-${dialect}-${Date.now()}@corto.test`;
    expect((await call(t.app, me.cookie, 'POST', '/api/account/email', { email: next, password: me.password })).statusCode).toBe(202);
    const changeToken = tokenIn(await smtp.nextWhere((mail) => (mail.to && 'text' in mail.to ? mail.to.text : '') === next));
    for (const token of [signUpToken, changeToken]) {
      // The page the mail opens (here without the web app: a 404, logged all the same), then its post.
      await fetch(`${t.base}/auth/verificar?token=${token}`);
      const used = await fetch(`${t.base}/api/auth/email-verification/confirm`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token }),
      });
      expect(used.status).toBe(200);
      // Used twice: refused, and the refusal is logged without it.
      await fetch(`${t.base}/api/auth/email-verification/confirm`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) });
    }
    const log = t.log();
    expect(log, 'the request lines are there, redacted').toContain(`/auth/verificar?token=${REDACTED}`);
    expect(log).toContain('/api/auth/email-verification/confirm');
    expect(log.includes(signUpToken)).toBe(false);
    expect(log.includes(changeToken)).toBe(false);
  });
});

describe('a confirmation mail that cannot be sent, and the log', () => {
  it('logs the failure without the link', async () => {
    // A port nothing listens on: the SMTP connection is refused.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as { port: number };
    await new Promise((resolve) => probe.close(resolve));
    const t = await loggedApp('sqlite', `smtp://127.0.0.1:${port}`);
    try {
      const me = await registerUser(t.app);
      const asked = await call(t.app, me.cookie, 'POST', '/api/account/email', { email: `fallida-${Date.now()}@corto.test`, password: me.password });
      expect(asked.statusCode).toBe(503);
      const log = t.log();
      expect(log).toContain('could not send the sign-up e-mail verification');
      expect(log).toContain('could not send an e-mail change confirmation');
      expect(log).not.toMatch(/verificar\?token=(?!\[REDACTED\])/);
      expect(log).not.toMatch(/token=[\w-]{20,}/);
    } finally {
      await t.close();
    }
  });
});
