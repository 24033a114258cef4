import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { visitFrom } from '../clicks/clicks.test-support';
import { createLinkAs } from '../links/links.test-support';
import { testRedisUrl as redisUrl } from '../test/redis';
import type { TestApp } from '../test/test-app';
import { createTwoInstancesOnOneDatabase, type InstancesOnOneDatabase, twoInstancesMissing } from '../test/two-instances';
import { person } from '../workspaces/workspaces.test-support';
import { createWebhookAs, eventually, type Receiver, startReceiver } from './webhooks.test-support';

// Two instances on one PostgreSQL database: each click recorded on either is delivered once, by
// one of them (their claims skip each other's rows), and a webhook created on one is known to the
// other's click writer through Redis.

const CLICKS = 10_000;
const missing = await twoInstancesMissing('webhooks.instances.test', redisUrl);

async function record(app: FastifyInstance, linkId: number, from: number, count: number) {
  for (let i = from; i < from + count; i++) {
    app.appContext.clickWriter.record(visitFrom(linkId, `198.51.${(i >> 8) & 255}.${i & 255}`, 'Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0'));
  }
  await app.appContext.clickWriter.flush();
}

describe.skipIf(missing.length > 0)('webhooks with two instances on PostgreSQL', () => {
  let a: TestApp;
  let b: FastifyInstance;
  let instances: InstancesOnOneDatabase;
  let receiver: Receiver;
  beforeAll(async () => {
    instances = await createTwoInstancesOnOneDatabase(redisUrl, { ALLOW_PRIVATE_DESTINATIONS: 'true', LINKS_PER_HOUR: '0' });
    ({ a, b } = instances);
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await instances?.close();
    await receiver?.close();
  });

  it(`delivers each of ${CLICKS} clicks exactly once`, async () => {
    const ana = await person(a.app, 'Ana');
    const link = await createLinkAs(a.app, ana.cookie);
    const { webhook } = await createWebhookAs(a.app, ana.cookie, { url: receiver.url, events: ['link.clicked'] }, receiver);
    await eventually(() => b.appContext.webhooks.subscriptions.isEnabled(webhook.id), 'B knows the webhook');
    await Promise.all([record(a.app, link.id, 0, CLICKS / 2), record(b, link.id, CLICKS / 2, CLICKS / 2)]);
    await eventually(() => new Set(receiver.received.map((r) => r.id)).size >= CLICKS, `${CLICKS} deliveries`, 60_000);
    // A moment for any duplicate still on its way.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.received).toHaveLength(CLICKS);
    expect(new Set(receiver.received.map((r) => r.id)).size).toBe(CLICKS);
    expect(receiver.received.every((r) => r.verified)).toBe(true);
    // A delivery is marked once the receiver's answer is back, a moment after the receiver has it.
    const undelivered = () => a.database.db.selectFrom('webhook_deliveries').select('id').where('status', '!=', 'delivered').execute();
    await eventually(async () => (await undelivered()).length === 0, 'every delivery marked delivered', 10_000);
    expect(await undelivered()).toEqual([]);
    expect(await a.database.db.selectFrom('webhook_click_batches').select('id').execute()).toEqual([]);
  }, 90_000);
});
