import { linkMessages } from '@common/links/link-messages';
import { LIVE_STREAMS_PER_USER, webhookMessages } from '@common/webhooks/webhook-messages';
import { type ClickEventData, clickEventDataSchema } from '@common/webhooks/webhook-schemas';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLinkAs } from '../links/links.test-support';
import { redisReachable, testRedisUrl } from '../test/redis';
import { createTestApp, createTwoInstancesOnRedis, type TestApp, testDialects } from '../test/test-app';
import { sameOrigin } from '../test/test-users';
import { bearer, createTokenAs } from '../tokens/tokens.test-support';
import { linkIn, person, team } from '../workspaces/workspaces.test-support';

// The live feed over real HTTP: a listening server, a streaming fetch reading its events as a
// browser's EventSource would, and clicks made by visiting the short link.

const HEARTBEAT_MS = 300;
const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

async function listen(app: FastifyInstance): Promise<string> {
  return app.listen({ port: 0, host: '127.0.0.1' });
}

/** An open stream: its events (data parsed), the named ones, the comments, and whether it ended. */
interface Watch {
  status: number;
  contentType: string | null;
  clicks: ClickEventData[];
  named: string[];
  comments: number;
  ended: boolean;
  text: string;
  stop(): void;
}

async function watch(base: string, linkId: number, headers: Record<string, string>): Promise<Watch> {
  const controller = new AbortController();
  const response = await fetch(`${base}/api/links/${linkId}/live`, { headers, signal: controller.signal });
  const state: Watch = {
    status: response.status,
    contentType: response.headers.get('content-type'),
    clicks: [],
    named: [],
    comments: 0,
    ended: false,
    text: '',
    stop: () => controller.abort(),
  };
  if (response.status !== 200) {
    state.text = await response.text();
    state.ended = true;
    return state;
  }
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  state.stop = () => {
    void reader.cancel().catch(() => {});
    controller.abort();
  };
  void (async () => {
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const lines = block.split('\n');
          const event = lines.find((line) => line.startsWith('event: '))?.slice(7);
          const data = lines.find((line) => line.startsWith('data: '))?.slice(6);
          if (lines.some((line) => line.startsWith(':'))) state.comments += 1;
          if (event) state.named.push(event);
          else if (data) state.clicks.push(clickEventDataSchema.parse(JSON.parse(data)));
        }
      }
    } catch {
      // aborted by the test
    }
    state.ended = true;
  })();
  return state;
}

async function until(condition: () => boolean, ms = 5000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  return condition();
}

/** A real visit of the short link, through the listening server, then the click writer's flush. */
async function visit(t: TestApp, base: string, path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}${path}`, { redirect: 'manual', headers });
  expect(response.status).toBeGreaterThanOrEqual(300);
  await t.app.appContext.clickWriter.flush();
}

const pathOf = (shortLink: string) => new URL(shortLink).pathname;

describe.each(testDialects)('live feed on %s', (dialect) => {
  let t: TestApp;
  let base: string;
  const open: Watch[] = [];
  const watching = async (linkId: number, headers: Record<string, string>) => {
    const w = await watch(base, linkId, headers);
    open.push(w);
    return w;
  };

  beforeAll(async () => {
    t = await createTestApp(dialect, { LIVE_FEED_HEARTBEAT_MS: String(HEARTBEAT_MS), AUTH_RATE_LIMIT_IP: '0' });
    base = await listen(t.app);
  });
  afterEach(() => {
    for (const w of open.splice(0)) w.stop();
  });
  afterAll(async () => {
    // fetch's pool keeps connections that never carried a request, which Node counts as busy and
    // the server's close would wait for (up to the headers timeout).
    t?.app.server.closeAllConnections();
    await t?.close();
  });

  it("streams the link's clicks as they are written, never an IP, with a comment every heartbeat", async () => {
    const owner = await person(t.app);
    const link = await createLinkAs(t.app, owner.cookie, { longUrl: 'https://example.com/directo' });
    const other = await createLinkAs(t.app, owner.cookie, { longUrl: 'https://example.com/otro' });
    const w = await watching(link.id, { cookie: owner.cookie });
    expect(w.status).toBe(200);
    expect(w.contentType).toBe('text/event-stream; charset=utf-8');
    expect(await until(() => t.app.appContext.liveFeed.watched(link.id))).toBe(true);

    await visit(t, base, pathOf(other.shortLink));
    await visit(t, base, `${pathOf(link.shortLink)}?qr=1`, { 'user-agent': PHONE, referer: 'https://www.buscador.example/q' });
    expect(await until(() => w.clicks.length === 1)).toBe(true);
    const [click] = w.clicks;
    expect(click).toEqual({
      linkId: link.id,
      shortLink: link.shortLink,
      clickedAt: expect.any(String),
      destination: 'https://example.com/directo',
      country: null,
      city: null,
      device: 'mobile',
      browser: 'Mobile Safari',
      os: 'iOS',
      referrer: 'buscador.example',
      bot: false,
      qr: true,
    });
    expect(JSON.stringify(w.clicks)).not.toContain('127.0.0.1');
    // The other link's click was never sent to this watcher.
    expect(w.clicks.every((c) => c.linkId === link.id)).toBe(true);
    expect(await until(() => w.comments >= 3)).toBe(true);
  });

  it('describes no click while nobody watches the link', async () => {
    const owner = await person(t.app);
    const link = await createLinkAs(t.app, owner.cookie);
    expect(t.app.appContext.liveFeed.watched(link.id)).toBe(false);
    const w = await watching(link.id, { cookie: owner.cookie });
    expect(await until(() => t.app.appContext.liveFeed.watched(link.id))).toBe(true);
    w.stop();
    expect(await until(() => !t.app.appContext.liveFeed.watched(link.id))).toBe(true);
  });

  it('ends the stream once its session is logged out', async () => {
    const owner = await person(t.app);
    const link = await createLinkAs(t.app, owner.cookie);
    const w = await watching(link.id, { cookie: owner.cookie });
    expect(w.status).toBe(200);
    const logout = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie: owner.cookie, ...sameOrigin } });
    expect(logout.statusCode).toBeLessThan(300);
    expect(await until(() => w.ended)).toBe(true);
    expect(w.named).toEqual(['end']);
  });

  it('ends a token\'s stream once the token is revoked', async () => {
    const owner = await person(t.app);
    const link = await createLinkAs(t.app, owner.cookie);
    const { token, secret } = await createTokenAs(t.app, owner.cookie, { scope: 'read' });
    const w = await watching(link.id, bearer(secret));
    expect(w.status).toBe(200);
    const revoke = await t.app.inject({ method: 'DELETE', url: `/api/tokens/${token.id}`, headers: { cookie: owner.cookie, ...sameOrigin } });
    expect(revoke.statusCode).toBeLessThan(300);
    expect(await until(() => w.ended)).toBe(true);
  });

  it("answers another workspace's link 404, as a link that does not exist, and lets a viewer watch", async () => {
    const crew = await team(t);
    const link = await linkIn(t, crew.owner, crew.workspace.id);
    const query = `?workspace=${crew.workspace.slug}`;
    const outsider = await fetch(`${base}/api/links/${link.id}/live${query}`, { headers: { cookie: crew.outsider.cookie } });
    expect(outsider.status).toBe(404);
    const theirs = await fetch(`${base}/api/links/${link.id}/live`, { headers: { cookie: crew.outsider.cookie } });
    const none = await fetch(`${base}/api/links/987654321/live`, { headers: { cookie: crew.outsider.cookie } });
    expect(theirs.status).toBe(404);
    const body = await theirs.text();
    expect(body).toBe(await none.text());
    expect(JSON.parse(body)).toMatchObject({ error: { message: linkMessages.notFound } });

    const viewer = await watching(link.id, { cookie: crew.viewer.cookie });
    expect(viewer.status).toBe(404); // without ?workspace= they act in their personal workspace
    const inTeam = await fetch(`${base}/api/links/${link.id}/live${query}`, { headers: { cookie: crew.viewer.cookie } });
    expect(inTeam.status).toBe(200);
    await inTeam.body?.cancel();
  });

  it(`refuses a user's ${LIVE_STREAMS_PER_USER + 1}th stream at once, in Spanish`, async () => {
    const owner = await person(t.app);
    const link = await createLinkAs(t.app, owner.cookie);
    for (let i = 0; i < LIVE_STREAMS_PER_USER; i++) expect((await watching(link.id, { cookie: owner.cookie })).status).toBe(200);
    const refused = await watching(link.id, { cookie: owner.cookie });
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.text).error.message).toBe(webhookMessages.liveTooMany);
    open.splice(0).forEach((w) => w.stop());
    expect(await until(() => !t.app.appContext.liveFeed.watched(link.id))).toBe(true);
    expect((await watching(link.id, { cookie: owner.cookie })).status).toBe(200);
  });
});

describe.each(testDialects)('live feed across two instances on Redis on %s', (dialect) => {
  let one: TestApp;
  let two: TestApp;
  let skip = false;

  beforeAll(async () => {
    if (!(await redisReachable(testRedisUrl))) {
      skip = true;
      console.warn(`live feed across instances skipped: no Redis at ${testRedisUrl}`);
      return;
    }
    [one, two] = await createTwoInstancesOnRedis(dialect, testRedisUrl);
    await Promise.all([one.app.appContext.liveFeed.listening, two.app.appContext.liveFeed.listening]);
  });
  afterAll(async () => {
    one?.app.server.closeAllConnections();
    two?.app.server.closeAllConnections();
    await one?.close();
    await two?.close();
  });

  it('hands a click recorded on instance A to a watcher on instance B', async (context) => {
    if (skip) context.skip();
    // Each instance has a database of its own: the same account and link made on both stand for one.
    const email = `directo-${dialect}-${Date.now()}@corto.test`;
    const onOne = await person(one.app, 'Directo', email);
    const onTwo = await person(two.app, 'Directo', email);
    const linkOnOne = await createLinkAs(one.app, onOne.cookie, { longUrl: 'https://example.com/dos', customUrl: `dos-${dialect}` });
    const linkOnTwo = await createLinkAs(two.app, onTwo.cookie, { longUrl: 'https://example.com/dos', customUrl: `dos-${dialect}` });
    expect(linkOnTwo.id).toBe(linkOnOne.id);

    const baseOne = await listen(one.app);
    const baseTwo = await listen(two.app);
    const w = await watch(baseTwo, linkOnTwo.id, { cookie: onTwo.cookie });
    expect(w.status).toBe(200);
    // A hears that B watches the link, so it describes and publishes its clicks.
    expect(await until(() => one.app.appContext.liveFeed.watched(linkOnOne.id))).toBe(true);
    await visit(one, baseOne, `/dos-${dialect}`, { 'user-agent': PHONE });
    expect(await until(() => w.clicks.length === 1)).toBe(true);
    expect(w.clicks[0]).toMatchObject({ linkId: linkOnOne.id, device: 'mobile', qr: false });
    w.stop();
  });
});
