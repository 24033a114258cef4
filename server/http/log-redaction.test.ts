import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { tokenMessages } from '@common/tokens/token-messages';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { migrateToLatest } from '../db/migrate';
import { openTestDatabase, testDialects } from '../test/test-app';
import { registerUser } from '../test/test-users';
import { bearer, createTokenAs } from '../tokens/tokens.test-support';
import { REDACTED, redactUrl } from './log-redaction';

// A listening server at the most talkative level, its log read back: a secret sent in a query
// string (a reset link's token, an invitation, an API token put in the address) never shows.

describe('redactUrl', () => {
  it('hides the values of secret-like parameters and keeps the rest', () => {
    expect(redactUrl('/auth/restablecer?token=abc')).toBe(`/auth/restablecer?token=${REDACTED}`);
    expect(redactUrl('/auth?tab=register&invite=xyz')).toBe(`/auth?tab=register&invite=${REDACTED}`);
    expect(redactUrl('/api/links?search=hola&access_token=s&API_KEY=k&p%61ssword=p&page=2')).toBe(
      `/api/links?search=hola&access_token=${REDACTED}&API_KEY=${REDACTED}&p%61ssword=${REDACTED}&page=2`,
    );
    expect(redactUrl('/api/links')).toBe('/api/links');
  });

  it("hides a workspace invitation's secret in its path, in the API and on its page", () => {
    expect(redactUrl('/api/invites/s3cr3t')).toBe(`/api/invites/${REDACTED}`);
    expect(redactUrl('/api/invites/s3cr3t/accept')).toBe(`/api/invites/${REDACTED}/accept`);
    expect(redactUrl('/invitacion/s3cr3t?x=1')).toBe(`/invitacion/${REDACTED}?x=1`);
    expect(redactUrl('/api/workspaces/equipo/invites')).toBe('/api/workspaces/equipo/invites');
  });
});

describe.each(testDialects)('secrets in query strings on %s', (dialect) => {
  let app: FastifyInstance;
  let base: string;
  const logs: string[] = [];
  let close: () => Promise<void>;

  beforeAll(async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'corto-logs-'));
    const { database, drop } = await openTestDatabase(dialect, dataDir);
    await migrateToLatest(database.db);
    const config = { ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'trace' }), webDir: undefined };
    app = await buildApp({ config, database, logStream: { write: (line: string) => void logs.push(line) } });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    close = async () => {
      await app.close();
      await database.close();
      await drop();
      await rm(dataDir, { recursive: true, force: true });
    };
  });
  afterAll(async () => close?.());

  it('never writes a reset token or an invitation from the address to the log', async () => {
    const secret = `RESETSECRET${dialect}${Date.now()}`;
    await fetch(`${base}/auth/restablecer?token=${secret}`);
    await fetch(`${base}/auth?tab=register&invite=INVITE${secret}`);
    const log = logs.join('');
    expect(log, 'the request lines are there, redacted').toContain(`/auth/restablecer?token=${REDACTED}`);
    // (A one-segment path goes through the redirect route, whose logger writes no request lines.)
    expect(log.includes(secret)).toBe(false);
  });

  it('refuses an API token in the address (it goes in the Authorization header) and never logs it', async () => {
    const { cookie } = await registerUser(app);
    const { secret } = await createTokenAs(app, cookie);
    for (const name of ['access_token', 'token']) {
      const response = await fetch(`${base}/api/links?${name}=${encodeURIComponent(secret)}`);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { message: string } }).error.message).toBe(tokenMessages.tokenInQuery);
    }
    expect(tokenMessages.tokenInQuery).toContain('Authorization');
    // Even beside a good header: the one in the address has leaked, and the caller must hear it.
    const both = await fetch(`${base}/api/links?access_token=${encodeURIComponent(secret)}`, { headers: bearer(secret) });
    expect(both.status).toBe(400);
    // The header alone still works.
    expect((await fetch(`${base}/api/links`, { headers: bearer(secret) })).status).toBe(200);
    const log = logs.join('');
    expect(log).toContain(`/api/links?access_token=${REDACTED}`);
    expect(log.includes(secret)).toBe(false);
    expect(log.includes(encodeURIComponent(secret))).toBe(false);
  });
});
