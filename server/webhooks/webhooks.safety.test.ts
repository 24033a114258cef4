import http from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WEBHOOK_IN_FLIGHT_MAX, webhookMessages as m } from '@common/webhooks/webhook-messages';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { recordVisits, visitFrom } from '../clicks/clicks.test-support';
import { createLinkAs } from '../links/links.test-support';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { person, type Person } from '../workspaces/workspaces.test-support';
import { attemptDelivery } from './delivery';
import { createDeliveryAgents, PRIVATE_ADDRESS } from './safe-agent';
import { createWebhookAs, eventually, type Receiver, startReceiver, webhookCall } from './webhooks.test-support';

// A receiver may be pointed anywhere (docs/webhooks.md): without ALLOW_PRIVATE_DESTINATIONS an
// address of this machine or a private network is refused when saved and again where the delivery
// connects (a name resolving to 127.0.0.1 included); redirects are not followed; a receiver that
// never answers or answers megabytes holds neither redirects nor memory, its events waiting in the outbox.

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36';

describe('receivers on private addresses, without ALLOW_PRIVATE_DESTINATIONS', () => {
  let t: TestApp;
  let ana: Person;
  beforeAll(async () => {
    t = await createTestApp('sqlite', { AUTH_RATE_LIMIT_IP: '0', AUTH_RATE_LIMIT_EMAIL: '0' });
    ana = await person(t.app, 'Ana');
  });
  afterAll(async () => t?.close());

  it('refuses them when saved, in Spanish', async () => {
    for (const url of ['http://127.0.0.1:8080/x', 'http://localhost:8080/x', 'http://[::1]:8080/x', 'https://10.0.0.7/x', 'http://169.254.169.254/latest', 'https://router.local/x']) {
      const response = await webhookCall(t.app, ana.cookie, 'POST', '/api/webhooks', { url, events: ['link.clicked'] });
      expect(response.statusCode, url).toBe(400);
      expect(response.json().error.fields?.url, `${url} ${response.body}`).toEqual([m.urlPrivate]);
    }
  });

  it('refuses a name that resolves to 127.0.0.1 where it connects, and the delivery says why', async () => {
    const receiver = await startReceiver();
    try {
      const agents = createDeliveryAgents(false);
      // Straight through the agent: the name passes as written, its address does not.
      const refused = await new Promise<NodeJS.ErrnoException>((resolve) => {
        http.get({ host: 'localhost', port: receiver.port, path: '/', agent: agents.http }, () => resolve(new Error('connected'))).on('error', resolve);
      });
      expect(refused.code).toBe(PRIVATE_ADDRESS);
      // A webhook saved earlier (or by an intranet's instance) whose name now points here.
      const attempt = await attemptDelivery(agents, { url: `http://localhost:${receiver.port}/x`, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', messageId: 'msg_1', payload: '{}' });
      expect(attempt).toMatchObject({ ok: false, status: null, error: m.deliveryPrivate });
      const literal = await attemptDelivery(agents, { url: `http://127.0.0.1:${receiver.port}/x`, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', messageId: 'msg_2', payload: '{}' });
      expect(literal.error).toBe(m.deliveryPrivate);
      expect(receiver.received).toEqual([]);
      agents.close();
    } finally {
      await receiver.close();
    }
  });
});

describe.each(testDialects)('receivers that misbehave, on %s', (dialect) => {
  let t: TestApp;
  let ana: Person;
  let receiver: Receiver;
  beforeAll(async () => {
    t = await createTestApp(dialect, { ALLOW_PRIVATE_DESTINATIONS: 'true', AUTH_RATE_LIMIT_IP: '0', AUTH_RATE_LIMIT_EMAIL: '0', LINKS_PER_HOUR: '0' });
    ana = await person(t.app, 'Ana');
  });
  afterAll(async () => t?.close());
  afterEach(async () => {
    await receiver?.close();
    await t.database.db.deleteFrom('webhooks').execute();
    await t.app.appContext.webhooks.subscriptions.changed();
  });

  it('does not follow a redirect', async () => {
    let followed = 0;
    const elsewhere = createServer((_request, response) => {
      followed += 1;
      response.end('ok');
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    const redirecting = createServer((_request, response) => {
      response.writeHead(307, { location: `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/` });
      response.end();
    });
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    try {
      const { webhook } = await createWebhookAs(t.app, ana.cookie, { url: `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/hook`, events: ['link.created'] });
      const ping = await webhookCall(t.app, ana.cookie, 'POST', `/api/webhooks/${webhook.id}/test`);
      expect(ping.json().delivery).toMatchObject({ status: 'failed', responseStatus: 307, error: m.deliveryRedirect });
      expect(followed).toBe(0);
    } finally {
      redirecting.close();
      elsewhere.close();
    }
  });

  it('keeps a silent receiver to a few deliveries at once, the rest waiting in the outbox, while redirects answer', async () => {
    receiver = await startReceiver();
    receiver.answer = 'hang';
    const { webhook } = await createWebhookAs(t.app, ana.cookie, { url: receiver.url, events: ['link.clicked'] }, receiver);
    const link = await createLinkAs(t.app, ana.cookie, { customUrl: `silencio-${dialect}` });
    await recordVisits(t, Array.from({ length: 300 }, (_, i) => visitFrom(link.id, `198.51.100.${(i % 200) + 1}`, CHROME)));
    await eventually(() => receiver.received.length >= WEBHOOK_IN_FLIGHT_MAX, 'the first deliveries reach it');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.received).toHaveLength(WEBHOOK_IN_FLIGHT_MAX);
    // Waiting: as deliveries, or in click batches not yet made into deliveries.
    const pending = await t.database.db.selectFrom('webhook_deliveries').select(['id']).where('webhook_id', '=', webhook.id).where('status', '=', 'pending').execute();
    const batched = await t.database.db.selectFrom('webhook_click_batches').select('click_count').where('webhook_id', '=', webhook.id).execute();
    expect(pending.length + batched.reduce((sum, row) => sum + row.click_count, 0)).toBe(300);
    const started = performance.now();
    const redirect = await t.app.inject({ method: 'GET', url: `/silencio-${dialect}` });
    expect(redirect.statusCode).toBe(302);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('reads a few KB of a receiver answering 10 MB and drops the rest', async () => {
    receiver = await startReceiver();
    receiver.answerBytes = 10 * 1024 * 1024;
    const { webhook } = await createWebhookAs(t.app, ana.cookie, { url: receiver.url, events: ['link.created'] }, receiver);
    const heapBefore = process.memoryUsage().heapUsed;
    const started = performance.now();
    const ping = await webhookCall(t.app, ana.cookie, 'POST', `/api/webhooks/${webhook.id}/test`);
    expect(ping.json().delivery).toMatchObject({ status: 'delivered', responseStatus: 200 });
    expect(performance.now() - started).toBeLessThan(5000);
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(8 * 1024 * 1024);
  });
});
