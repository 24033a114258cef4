import {
  WEBHOOK_DELIVERIES_SHOWN,
  WEBHOOK_DISABLE_AFTER_FAILURES,
  WEBHOOK_IN_FLIGHT_MAX,
  WEBHOOK_PROBE_DELAYS_MS,
  WEBHOOK_RETRY_DELAYS_MS,
  webhookMessages as m,
} from '@common/webhooks/webhook-messages';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { recordVisits, visitFrom } from '../clicks/clicks.test-support';
import { createLinkAs } from '../links/links.test-support';
import { startSmtpCapture, type SmtpCapture } from '../test/smtp-capture';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { person, type Person, team, type Team } from '../workspaces/workspaces.test-support';
import { PRUNE_EVERY_MS } from './dispatcher';
import { createWebhookAs, eventually, type Receiver, startReceiver, webhookCall } from './webhooks.test-support';

// Webhooks end to end on a real receiver (docs/webhooks.md): the routes, every delivery verified
// with the standardwebhooks package, clicks and link events written with what they announce,
// retries, disabling after failures in a row, the log and its pruning. The receiver listens on
// 127.0.0.1, so these run with ALLOW_PRIVATE_DESTINATIONS (the refusal is webhooks.safety.test.ts).

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36';

describe.each(testDialects)('webhooks on %s', (dialect) => {
  let t: TestApp;
  let ana: Person;
  let receiver: Receiver;
  let smtp: SmtpCapture;
  beforeAll(async () => {
    smtp = await startSmtpCapture();
    t = await createTestApp(dialect, { SMTP_URL: smtp.url, ALLOW_PRIVATE_DESTINATIONS: 'true', AUTH_RATE_LIMIT_IP: '0', AUTH_RATE_LIMIT_EMAIL: '0', LINKS_PER_HOUR: '0' });
    ana = await person(t.app, 'Ana');
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });
  afterEach(async () => {
    await receiver?.close();
    // Each test's webhooks gone, so the next one starts from none.
    await t.database.db.deleteFrom('webhooks').execute();
    await t.app.appContext.webhooks.subscriptions.changed();
  });

  it('creates a webhook with a secret shown once, lists, reads, changes and deletes it', async () => {
    receiver = await startReceiver();
    const { webhook, secret } = await createWebhookAs(t.app, ana.cookie, { url: receiver.url, events: ['link.clicked', 'link.created', 'link.clicked'] });
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    expect(webhook).toMatchObject({ url: receiver.url, events: ['link.clicked', 'link.created'], links: [], enabled: true, disabledReason: null, failuresInARow: 0 });
    const list = await webhookCall(t.app, ana.cookie, 'GET', '/api/webhooks');
    expect(list.json().webhooks).toEqual([webhook]);
    expect(list.body).not.toContain(secret);
    const one = await webhookCall(t.app, ana.cookie, 'GET', `/api/webhooks/${webhook.id}`);
    expect(one.json().webhook).toEqual(webhook);
    expect(one.body).not.toContain(secret);

    const link = await createLinkAs(t.app, ana.cookie);
    const changed = await webhookCall(t.app, ana.cookie, 'PATCH', `/api/webhooks/${webhook.id}`, { events: ['link.deleted'], links: [link.id], enabled: false });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().webhook).toMatchObject({ events: ['link.deleted'], links: [link.id], enabled: false, disabledReason: null });
    expect(t.app.appContext.webhooks.subscriptions.isEnabled(webhook.id)).toBe(false);

    const deleted = await webhookCall(t.app, ana.cookie, 'DELETE', `/api/webhooks/${webhook.id}`);
    expect(deleted.statusCode).toBe(204);
    expect((await webhookCall(t.app, ana.cookie, 'GET', `/api/webhooks/${webhook.id}`)).statusCode).toBe(404);
    expect(await t.database.db.selectFrom('webhook_links').selectAll().execute()).toEqual([]);
  });

  it('refuses bad input with Spanish 400s', async () => {
    const bea = await person(t.app, 'Bea');
    const hers = await createLinkAs(t.app, bea.cookie);
    const cases: Array<[unknown, string, string]> = [
      [{ url: 'https://usuario:clave@crm.empresa.es/x', events: ['link.clicked'] }, 'url', m.urlCredentials],
      [{ url: 'https://crm.empresa.es:22/x', events: ['link.clicked'] }, 'url', m.urlPort],
      [{ url: 'ftp://crm.empresa.es/x', events: ['link.clicked'] }, 'url', m.urlScheme],
      [{ url: `https://crm.empresa.es/${'a'.repeat(2000)}`, events: ['link.clicked'] }, 'url', m.urlTooLong],
      [{ url: 'https://crm.empresa.es/x', events: ['link.visited'] }, 'events', m.eventUnknown],
      [{ url: 'https://crm.empresa.es/x', events: [] }, 'events', m.eventsRequired],
      [{ url: 'https://crm.empresa.es/x', events: ['link.clicked'], links: [hers.id] }, 'links', m.linkNotInWorkspace],
    ];
    for (const [body, field, message] of cases) {
      const response = await webhookCall(t.app, ana.cookie, 'POST', '/api/webhooks', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().error.fields?.[field], `${JSON.stringify(body)} ${response.body}`).toContain(message);
    }
    expect(await t.database.db.selectFrom('webhooks').selectAll().execute()).toEqual([]);
  });

  it('sends a signed ping from the test button and logs it', async () => {
    receiver = await startReceiver();
    const { webhook } = await createWebhookAs(t.app, ana.cookie, { url: receiver.url, events: ['link.created'] }, receiver);
    const response = await webhookCall(t.app, ana.cookie, 'POST', `/api/webhooks/${webhook.id}/test`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().delivery).toMatchObject({ event: 'ping', status: 'delivered', responseStatus: 200, attempts: 1, nextAttemptAt: null, error: null });
    expect(receiver.received).toHaveLength(1);
    const [ping] = receiver.received;
    expect(ping!.verified).toBe(true);
    expect(ping!.body).toMatchObject({ type: 'ping', data: {} });
    expect(ping!.headers['webhook-signature']).toMatch(/^v1,/);
    const log = await webhookCall(t.app, ana.cookie, 'GET', `/api/webhooks/${webhook.id}/deliveries`);
    expect(log.json().deliveries).toEqual([response.json().delivery]);
  });

  it('delivers each recorded click once, signed, without the IP, only for the links filtered', async () => {
    receiver = await startReceiver();
    const watched = await createLinkAs(t.app, ana.cookie, { longUrl: 'https://example.com/mirado' });
    const other = await createLinkAs(t.app, ana.cookie);
    await createWebhookAs(t.app, ana.cookie, { url: receiver.url, events: ['link.clicked'], links: [watched.id] }, receiver);
    await recordVisits(t, [visitFrom(watched.id, '203.0.113.77', CHROME), visitFrom(other.id, '203.0.113.78', CHROME), visitFrom(watched.id, '203.0.113.79', CHROME)]);
    await eventually(() => receiver.received.length >= 2, 'two clicks delivered');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receiver.received).toHaveLength(2);
    for (const delivery of receiver.received) {
      expect(delivery.verified).toBe(true);
      expect(delivery.body.type).toBe('link.clicked');
      expect(delivery.body.data).toMatchObject({ linkId: watched.id, shortLink: watched.shortLink, destination: 'https://example.com/mirado', device: 'desktop', browser: 'Chrome', bot: false, qr: false });
      expect(JSON.stringify(delivery)).not.toContain('203.0.113.');
    }
    expect(new Set(receiver.received.map((r) => r.id)).size).toBe(2);
  });

  it('asks nothing more of a click batch while no enabled webhook wants clicks', async () => {
    receiver = await startReceiver();
    const { webhooks } = t.app.appContext;
    const link = await createLinkAs(t.app, ana.cookie);
    expect(webhooks.clickAnnouncement()).toBeUndefined();
    const { webhook } = await createWebhookAs(t.app, ana.cookie, { url: receiver.url, events: ['link.created'] }, receiver);
    expect(webhooks.clickAnnouncement()).toBeUndefined();
    await webhookCall(t.app, ana.cookie, 'PATCH', `/api/webhooks/${webhook.id}`, { events: ['link.clicked'] });
    expect(webhooks.clickAnnouncement()).toEqual({ publicBaseUrl: t.config.publicBaseUrl });
    await webhookCall(t.app, ana.cookie, 'PATCH', `/api/webhooks/${webhook.id}`, { enabled: false });
    expect(webhooks.clickAnnouncement()).toBeUndefined();
    await recordVisits(t, [visitFrom(link.id, '203.0.113.90', CHROME)]);
    expect(await t.database.db.selectFrom('webhook_deliveries').selectAll().execute()).toEqual([]);
  });

  it('announces links created, changed and deleted, in their transactions', async () => {
    receiver = await startReceiver();
    await createWebhookAs(t.app, ana.cookie, { url: receiver.url, events: ['link.created', 'link.updated', 'link.deleted'] }, receiver);
    const link = await createLinkAs(t.app, ana.cookie, { title: 'Anunciado' });
    const edited = await webhookCall(t.app, ana.cookie, 'PATCH', `/api/links/${link.id}`, { title: 'Cambiado' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await webhookCall(t.app, ana.cookie, 'DELETE', `/api/links/${link.id}`)).statusCode).toBe(204);
    await eventually(() => receiver.received.length >= 3, 'three link events');
    const byType = Object.fromEntries(receiver.received.map((r) => [r.body.type, r]));
    expect(byType['link.created']!.body.data).toMatchObject({ id: link.id, title: 'Anunciado', shortLink: link.shortLink });
    expect(byType['link.updated']!.body.data).toMatchObject({ id: link.id, title: 'Cambiado' });
    expect(byType['link.deleted']!.body.data).toMatchObject({ id: link.id, title: 'Cambiado' });
    expect(receiver.received.every((r) => r.verified)).toBe(true);
  });

  it('announces each link a bulk edit changed, and none it left as it was', async () => {
    receiver = await startReceiver();
    const first = await createLinkAs(t.app, ana.cookie, { title: 'Primero' });
    const second = await createLinkAs(t.app, ana.cookie, { title: 'Segundo' });
    const paused = await createLinkAs(t.app, ana.cookie, { title: 'Ya en pausa' });
    expect((await webhookCall(t.app, ana.cookie, 'PATCH', `/api/links/${paused.id}`, { paused: true })).statusCode).toBe(200);
    await createWebhookAs(t.app, ana.cookie, { url: receiver.url, events: ['link.updated'] }, receiver);
    const bulk = await webhookCall(t.app, ana.cookie, 'POST', '/api/links/bulk-update', { ids: [first.id, second.id, paused.id], changes: { paused: true } });
    expect(bulk.statusCode, bulk.body).toBe(200);
    await eventually(() => receiver.received.length >= 2, 'two link.updated');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received.map((r) => r.body.data.id).sort()).toEqual([first.id, second.id].sort());
    expect(receiver.received.every((r) => r.body.type === 'link.updated' && r.body.data.paused === true && r.verified)).toBe(true);
  });

  it('retries a failed delivery with the planned waits, and the retry route sends it again', async () => {
    receiver = await startReceiver();
    receiver.answer = 500;
    const { webhook } = await createWebhookAs(t.app, ana.cookie, { url: receiver.url, events: ['link.created'] }, receiver);
    const before = Date.now();
    await createLinkAs(t.app, ana.cookie);
    const log = async () => (await webhookCall(t.app, ana.cookie, 'GET', `/api/webhooks/${webhook.id}/deliveries`)).json().deliveries;
    await eventually(async () => (await log())[0]?.attempts === 1, 'first attempt');
    const [first] = await log();
    expect(first).toMatchObject({ status: 'pending', responseStatus: 500, error: m.deliveryStatus(500) });
    const wait = Date.parse(first.nextAttemptAt) - before;
    expect(wait).toBeGreaterThanOrEqual(WEBHOOK_RETRY_DELAYS_MS[0] - 1000);
    expect(wait).toBeLessThan(WEBHOOK_RETRY_DELAYS_MS[0] + 5000);

    // The second wait follows once the first retry fails too (made due now rather than in 5 s).
    await t.database.db.updateTable('webhook_deliveries').set({ next_attempt_at: Date.now() }).where('id', '=', first.id).execute();
    t.app.appContext.webhooks.announced();
    await eventually(async () => (await log())[0]?.attempts === 2, 'second attempt');
    const [second] = await log();
    expect(Date.parse(second.nextAttemptAt) - Date.now()).toBeGreaterThan(WEBHOOK_RETRY_DELAYS_MS[1] - 10_000);

    receiver.answer = 204;
    const retried = await webhookCall(t.app, ana.cookie, 'POST', `/api/webhooks/${webhook.id}/deliveries/${first.id}/retry`);
    expect(retried.statusCode, retried.body).toBe(200);
    await eventually(async () => (await log())[0]?.status === 'delivered', 'delivered after the retry');
    expect((await log())[0]).toMatchObject({ attempts: 3, responseStatus: 204, nextAttemptAt: null, error: null });
    expect(new Set(receiver.received.map((r) => r.id)).size).toBe(1);
    expect((await webhookCall(t.app, ana.cookie, 'POST', `/api/webhooks/${webhook.id}/deliveries/999999/retry`)).statusCode).toBe(404);
  });

  it(`disables a webhook after ${WEBHOOK_DISABLE_AFTER_FAILURES} failures in a row and says why to its admins`, async () => {
    receiver = await startReceiver();
    receiver.answer = 503;
    const crew: Team = await team(t, `Equipo webhooks ${dialect}`);
    const { webhook } = await createWebhookAs(t.app, crew.admin.cookie, { url: receiver.url, events: ['link.clicked'] }, receiver, crew.workspace.slug);
    const link = await createLinkAs(t.app, crew.owner.cookie);
    await t.database.db.updateTable('urls').set({ workspace_id: crew.workspace.id }).where('id', '=', link.id).execute();
    // A failing receiver is probed after growing pauses (the next test): its 20th failure comes
    // half a day later. Here the count stands one short of it, as after those hours.
    await t.database.db.updateTable('webhooks').set({ failures_in_a_row: WEBHOOK_DISABLE_AFTER_FAILURES - 1 }).where('id', '=', webhook.id).execute();
    await recordVisits(t, Array.from({ length: 5 }, (_, i) => visitFrom(link.id, `198.51.100.${i + 1}`, CHROME)));
    const read = async () => (await webhookCall(t.app, crew.owner.cookie, 'GET', `/api/webhooks/${webhook.id}`, undefined, crew.workspace.slug)).json().webhook;
    await eventually(async () => (await read()).enabled === false, 'disabled');
    expect(await read()).toMatchObject({ enabled: false, disabledReason: m.disabledAfterFailures });
    expect((await read()).failuresInARow).toBeGreaterThanOrEqual(WEBHOOK_DISABLE_AFTER_FAILURES);
    // Each admin and owner hears it, in Spanish.
    // (Sign-ups mail their confirmation links to the same server: only this mail is looked at.)
    const disabledMail = (mail: { subject?: string }) => mail.subject?.startsWith('Webhook desactivado') === true;
    const mails = [await smtp.nextWhere(disabledMail), await smtp.nextWhere(disabledMail)];
    expect(mails.map((mail) => (mail.to as { text: string }).text).sort()).toEqual([crew.owner.email, crew.admin.email].sort());
    for (const mail of mails) {
      expect(mail.subject).toBe(`Webhook desactivado en «${crew.workspace.name}»`);
      expect(mail.text).toContain(receiver.url);
      expect(mail.text).toContain('Los avisos pendientes se conservan');
    }
    // An editor may not see or change webhooks.
    expect((await webhookCall(t.app, crew.editor.cookie, 'GET', '/api/webhooks', undefined, crew.workspace.slug)).statusCode).toBe(403);
    // Enabled again by hand: the count starts over.
    const again = await webhookCall(t.app, crew.admin.cookie, 'PATCH', `/api/webhooks/${webhook.id}`, { enabled: true }, crew.workspace.slug);
    expect(again.json().webhook).toMatchObject({ enabled: true, disabledReason: null, failuresInARow: 0 });
  });

  it('pauses for a receiver that fails, probes it with one delivery, and sends the backlog once it answers', async () => {
    receiver = await startReceiver();
    receiver.answer = 503;
    const { webhook } = await createWebhookAs(t.app, ana.cookie, { url: receiver.url, events: ['link.clicked'] }, receiver);
    const link = await createLinkAs(t.app, ana.cookie);
    await recordVisits(t, Array.from({ length: 60 }, (_, i) => visitFrom(link.id, `198.51.100.${i + 1}`, CHROME)));
    await eventually(() => receiver.received.length > 0, 'a first attempt');
    // The failed round stops: no more than the deliveries already in flight, then nothing during the pause.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(receiver.received.length).toBeLessThanOrEqual(WEBHOOK_IN_FLIGHT_MAX);
    const read = async () => (await webhookCall(t.app, ana.cookie, 'GET', `/api/webhooks/${webhook.id}`)).json().webhook;
    expect(await read()).toMatchObject({ enabled: true, failuresInARow: receiver.received.length });
    // Back up: the probe at the end of the first pause (5 s) goes through, and so does everything after it.
    receiver.answer = 200;
    const delivered = () => new Set(receiver.received.filter((r) => r.answeredWith === 200).map((r) => r.id)).size;
    await eventually(() => delivered() === 60, 'the backlog sent', WEBHOOK_PROBE_DELAYS_MS[0] + 15_000);
    expect(await read()).toMatchObject({ enabled: true, failuresInARow: 0 });
  }, 40_000);

  // The loop as heavy redirects keep it: 19 ms of work at a time, or 3 ms between waits for clients
  // (about 70 % busy, where a 10 ms look could read it as idle and send at full speed).
  it.each([
    ['always busy', 19],
    ['busy between waits for its clients', 3],
  ])('holds deliveries back while redirects keep the event loop %s, and sends them once it eases', async (_shape, burstMs) => {
    receiver = await startReceiver();
    await createWebhookAs(t.app, ana.cookie, { url: receiver.url, events: ['link.clicked'] }, receiver);
    const link = await createLinkAs(t.app, ana.cookie);
    let loaded = true;
    const work = () => {
      const end = performance.now() + burstMs;
      while (performance.now() < end);
      if (loaded) setTimeout(work, 1);
    };
    work();
    try {
      await recordVisits(t, Array.from({ length: 200 }, (_, i) => visitFrom(link.id, `198.51.100.${i + 1}`, CHROME)));
      await new Promise((resolve) => setTimeout(resolve, 3000));
      expect(receiver.received.length).toBeLessThan(100);
    } finally {
      loaded = false;
    }
    // A pause ends when the load does, not after the seconds it was owed.
    const eased = performance.now();
    await eventually(() => receiver.received.length === 200, 'the backlog sent once the loop eased');
    expect(performance.now() - eased).toBeLessThan(4000);
  });

  it(`keeps the last ${WEBHOOK_DELIVERIES_SHOWN} deliveries of a webhook`, async () => {
    receiver = await startReceiver();
    const { webhook } = await createWebhookAs(t.app, ana.cookie, { url: receiver.url, events: ['link.clicked'] }, receiver);
    const link = await createLinkAs(t.app, ana.cookie);
    await recordVisits(t, Array.from({ length: 150 }, (_, i) => visitFrom(link.id, `192.0.2.${(i % 250) + 1}`, CHROME)));
    await eventually(() => receiver.received.length >= 150, 'all delivered');
    // Pruned after a batch is sent, at most every PRUNE_EVERY_MS: one more click once that long has
    // passed is pruned after, and nothing comes after it to add a row.
    await new Promise((resolve) => setTimeout(resolve, PRUNE_EVERY_MS + 500));
    await recordVisits(t, [visitFrom(link.id, '192.0.2.251', CHROME)]);
    const stored = () => t.database.db.selectFrom('webhook_deliveries').select('id').where('webhook_id', '=', webhook.id).execute();
    await eventually(async () => receiver.received.length >= 151 && (await stored()).length <= WEBHOOK_DELIVERIES_SHOWN, 'pruned');
    const shown = (await webhookCall(t.app, ana.cookie, 'GET', `/api/webhooks/${webhook.id}/deliveries`)).json().deliveries;
    expect(shown.length).toBeLessThanOrEqual(WEBHOOK_DELIVERIES_SHOWN);
    expect(shown.length).toBeGreaterThan(90);
  }, 60_000);

  it('deletes a webhook while its backlog is being sent', async () => {
    // The deletion cascades to the webhook's outbox while the dispatcher claims, writes and prunes
    // those rows: on PostgreSQL, taking them in another order ended in a deadlock and a 500.
    receiver = await startReceiver();
    const link = await createLinkAs(t.app, ana.cookie);
    for (let round = 0; round < 4; round++) {
      receiver.received.length = 0;
      const { webhook } = await createWebhookAs(t.app, ana.cookie, { url: receiver.url, events: ['link.clicked'] }, receiver);
      await recordVisits(t, Array.from({ length: 300 }, (_, i) => visitFrom(link.id, `203.0.113.${(i % 250) + 1}`, CHROME)));
      await eventually(() => receiver.received.length >= 20, 'deliveries under way');
      const deleted = await webhookCall(t.app, ana.cookie, 'DELETE', `/api/webhooks/${webhook.id}`);
      expect(deleted.statusCode, deleted.body).toBe(204);
      expect(await t.database.db.selectFrom('webhook_deliveries').select('id').where('webhook_id', '=', webhook.id).execute()).toEqual([]);
      expect(await t.database.db.selectFrom('webhook_click_batches').select('id').where('webhook_id', '=', webhook.id).execute()).toEqual([]);
    }
  }, 60_000);

  it('deleting a link or the workspace leaves nothing broken', async () => {
    receiver = await startReceiver();
    const crew = await team(t, `Equipo borrado ${dialect}`);
    const link = await createLinkAs(t.app, crew.owner.cookie);
    await t.database.db.updateTable('urls').set({ workspace_id: crew.workspace.id }).where('id', '=', link.id).execute();
    const { webhook } = await createWebhookAs(t.app, crew.owner.cookie, { url: receiver.url, events: ['link.deleted'], links: [link.id] }, receiver, crew.workspace.slug);
    expect((await webhookCall(t.app, crew.owner.cookie, 'DELETE', `/api/links/${link.id}`, undefined, crew.workspace.slug)).statusCode).toBe(204);
    await eventually(() => receiver.received.length === 1, 'deletion announced');
    const after = (await webhookCall(t.app, crew.owner.cookie, 'GET', `/api/webhooks/${webhook.id}`, undefined, crew.workspace.slug)).json().webhook;
    expect(after.links).toEqual([]);
    await t.database.db.deleteFrom('workspaces').where('id', '=', crew.workspace.id).execute();
    expect(await t.database.db.selectFrom('webhooks').selectAll().where('id', '=', webhook.id).execute()).toEqual([]);
    expect(await t.database.db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', webhook.id).execute()).toEqual([]);
  });
});
