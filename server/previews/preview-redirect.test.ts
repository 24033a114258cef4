import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLinkAs } from '../links/links.test-support';
import { agents, requestOn } from '../redirect/redirect.test-support';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { makeImage, multipart, registerUser, sameOrigin } from '../test/test-users';

// Each crawler as it introduces itself when a link is pasted in its app.
const crawlers = {
  WhatsApp: 'WhatsApp/2.23.20.0 A',
  Telegram: 'TelegramBot (like TwitterBot)',
  Slack: 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
  X: 'Twitterbot/1.0',
  Facebook: 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
  LinkedIn: 'LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)',
  Discord: 'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)',
  iMessage:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_11_1) AppleWebKit/601.2.4 (KHTML, like Gecko) Version/9.0.1 Safari/601.2.4 facebookexternalhit/1.1 Facebot Twitterbot/1.0',
  Skype: 'Mozilla/5.0 (Windows NT 6.1; WOW64) SkypeUriPreview Preview/0.5 skype-url-preview@microsoft.com',
  Pinterest: 'Pinterest/0.2 (+https://www.pinterest.com/bot.html)',
  Reddit: 'Mozilla/5.0 (compatible; redditbot/1.0; +http://www.reddit.com/feedback)',
  Mastodon: 'Mastodon/4.2.1 (http.rb/5.1.1; +https://mastodon.social/)',
};

const BASE = 'https://corto.example';

/** The content of each <meta> by its property or name. */
const metaOf = (html: string) =>
  Object.fromEntries([...html.matchAll(/<meta (?:property|name)="([^"]+)" content="([^"]*)">/g)].map((match) => [match[1]!, match[2]!]));

describe.each(testDialects)('a link with a preview, visited on %s', (dialect) => {
  let t: TestApp;
  let base = '';
  let host = '';
  let cookie = '';
  beforeAll(async () => {
    t = await createTestApp(dialect, { PUBLIC_BASE_URL: BASE });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    host = new URL(base).host;
    ({ cookie } = await registerUser(t.app));
  });
  afterAll(() => t.close());

  const visit = (path: string, userAgent: string, method = 'GET') => requestOn(base, host, path, { method, headers: { 'user-agent': userAgent } });
  const patch = (id: number, payload: object) => t.app.inject({ method: 'PATCH', url: `/api/links/${id}`, headers: { cookie, ...sameOrigin }, payload });
  const upload = async (id: number) => {
    const body = await multipart({ image: { bytes: await makeImage('png', 600, 400), filename: 'a.png', type: 'image/png' } });
    const response = await t.app.inject({ method: 'PUT', url: `/api/links/${id}/preview-image`, headers: { cookie, ...sameOrigin, ...body.headers }, payload: body.payload });
    return response.json().link.preview.image as string;
  };
  const withPreview = async (preview = { title: 'Rebajas de verano', description: 'Todo al 50 % hasta el domingo' }, image = true) => {
    const link = await createLinkAs(t.app, cookie, { title: 'Enlace propio', longUrl: 'https://example.com/oferta' });
    await patch(link.id, { preview });
    return { ...link, image: image ? await upload(link.id) : null };
  };
  const clicks = async (urlId: number) => {
    await t.app.appContext.clickWriter.flush();
    const rows = await t.database.db.selectFrom('clicks').select('is_bot').where('url_id', '=', urlId).orderBy('id').execute();
    const link = await t.database.db.selectFrom('urls').select('click_count').where('id', '=', urlId).executeTakeFirstOrThrow();
    return { bots: rows.map((row) => Number(row.is_bot)), counted: Number(link.click_count) };
  };

  it.each(Object.entries(crawlers))('gives %s the card: 200, Open Graph and Twitter tags, the absolute image, no script', async (_name, userAgent) => {
    const link = await withPreview();
    const answer = await visit(`/${link.shortCode}`, userAgent);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answer.headers['content-security-policy']).toContain("script-src 'none'");
    expect(answer.headers['content-security-policy']).toContain("default-src 'none'");
    expect(answer.headers.location).toBeUndefined();
    expect(metaOf(answer.body)).toMatchObject({
      'og:title': 'Rebajas de verano',
      'og:description': 'Todo al 50 % hasta el domingo',
      'og:image': link.image,
      // PUBLIC_BASE_URL is https: so is every address the instance gives.
      'og:url': `https://${host}/${link.shortCode}`,
      'twitter:card': 'summary_large_image',
    });
    expect(link.image).toMatch(/^https:\/\/corto\.example\/storage\/previews\//);
    expect(answer.body).toContain('<title>Rebajas de verano</title>');
    expect(answer.body).not.toMatch(/<script/i);
  });

  it('sends people on as before, through the fast path too, and counts a bot visit as a bot one', async () => {
    const link = await withPreview();
    for (const agent of [agents.desktop, agents.iphone, agents.android]) {
      const answer = await visit(`/${link.shortCode}`, agent);
      expect(answer.status).toBe(302);
      expect(answer.headers.location).toBe('https://example.com/oferta');
    }
    expect((await visit(`/${link.shortCode}`, crawlers.WhatsApp)).status).toBe(200);
    expect((await visit(`/${link.shortCode}?utm_source=x`, crawlers.Slack)).status).toBe(200);
    // A HEAD is no visit, card or not.
    expect((await visit(`/${link.shortCode}`, crawlers.Facebook, 'HEAD')).status).toBe(200);
    expect(await clicks(link.id)).toEqual({ bots: [0, 0, 0, 1, 1], counted: 3 });
  });

  it('escapes everything: a title with <script> and quotes stays text, in every tag', async () => {
    const title = `"><script>alert('x')</script> & 'más'`;
    const link = await withPreview({ title, description: '<img src=x onerror=alert(1)> "comillas"' }, false);
    const answer = await visit(`/${link.shortCode}`, crawlers.X);
    expect(answer.status).toBe(200);
    expect(answer.body).not.toMatch(/<script|<img/i);
    expect(answer.body).toContain('<title>&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &#39;más&#39;</title>');
    const meta = metaOf(answer.body);
    expect(meta['og:title']).toBe('&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &#39;más&#39;');
    expect(meta['og:description']).toBe('&lt;img src=x onerror=alert(1)&gt; &quot;comillas&quot;');
    // Without an image: the small card, and no og:image.
    expect(meta['twitter:card']).toBe('summary');
    expect(meta['og:image']).toBeUndefined();
  });

  it('keeps the card after its image is deleted, without the image', async () => {
    const link = await withPreview();
    expect(metaOf((await visit(`/${link.shortCode}`, crawlers.Discord)).body)['og:image']).toBe(link.image);
    await t.app.inject({ method: 'DELETE', url: `/api/links/${link.id}/preview-image`, headers: { cookie, ...sameOrigin } });
    const meta = metaOf((await visit(`/${link.shortCode}`, crawlers.Discord)).body);
    expect(meta['og:title']).toBe('Rebajas de verano');
    expect(meta['og:image']).toBeUndefined();
  });

  it("shows only an image's card with the link's own title; a removed preview gives bots the redirect again", async () => {
    const link = await createLinkAs(t.app, cookie, { title: 'Enlace propio', longUrl: 'https://example.com/solo-foto' });
    await upload(link.id);
    expect(metaOf((await visit(`/${link.shortCode}`, crawlers.Telegram)).body)['og:title']).toBe('Enlace propio');
    await patch(link.id, { preview: null });
    const answer = await visit(`/${link.shortCode}`, crawlers.Telegram);
    expect(answer.status).toBe(302);
    expect(answer.headers.location).toBe('https://example.com/solo-foto');
  });

  it('gives bots the redirect for a link without a preview, as before', async () => {
    const link = await createLinkAs(t.app, cookie, { longUrl: 'https://example.com/sin-tarjeta' });
    const answer = await visit(`/${link.shortCode}`, crawlers.WhatsApp);
    expect(answer.status).toBe(302);
  });

  it('shows no card behind a gate: a password keeps its form, a paused link its page', async () => {
    const locked = await withPreview();
    await patch(locked.id, { password: 'secreta1' });
    const form = await visit(`/${locked.shortCode}`, crawlers.WhatsApp);
    // The form, as for any visitor: what the password keeps is not told to a chat either.
    expect(form.body).toContain('name="password"');
    expect(form.body).not.toContain('Rebajas de verano');
    const paused = await withPreview();
    await patch(paused.id, { paused: true });
    const page = await visit(`/${paused.shortCode}`, crawlers.Facebook);
    expect(page.status).toBe(404);
    expect(page.body).not.toContain('Rebajas de verano');
  });

  it('gives the card on an alias too, with the alias as og:url', async () => {
    const link = await withPreview();
    await patch(link.id, { customUrl: 'verano-2026' });
    const meta = metaOf((await visit('/verano-2026', crawlers.LinkedIn)).body);
    expect(meta['og:url']).toBe(`https://${host}/verano-2026`);
  });
});
