import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import type { RedirectType, Rule, Variant } from '@common/rules/rule-schemas';
import type { Database } from '../db/database';
import { domainAddressKey } from '../domains/domain-keys';
import { insertLink as insertUrlRow } from '../links/links.queries';
import type { RollupDimension } from '../db/schema';
import { createPersonalWorkspace } from '../workspaces/personal-workspace';

let counter = 0;

/** A user (with their personal workspace) and a link written straight to the database: the redirect tests need rows, not the links API. */
export async function insertLink(
  db: Database,
  link: {
    shortUrl?: string;
    customUrl?: string | null;
    originalUrl?: string;
    /** The link's life (migration 0009), as PATCH /api/links/:id would store it. */
    state?: { paused?: number; expires_at?: number | null; max_clicks?: number | null; password_hash?: string | null };
    /** A custom domain's id (insertDomain): the link answers there, its alias keyed under the domain. */
    domainId?: number;
  } = {},
): Promise<{ id: number; shortUrl: string; customUrl: string | null; originalUrl: string }> {
  counter += 1;
  const now = Date.now();
  const user = await db
    .insertInto('users')
    .values({ email: `r${counter}-${now}@corto.test`, name: 'Prueba', password_hash: 'x', profile_image: 'p.png', created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const workspaceId = await createPersonalWorkspace(db, { id: Number(user.id), name: 'Prueba' }, now);
  const shortUrl = link.shortUrl ?? `t${(now + counter).toString(36).slice(-5)}`;
  const originalUrl = link.originalUrl ?? 'https://example.com/a/very/long/path?x=1';
  const customUrl = link.customUrl ?? null;
  const row = await insertUrlRow(db, {
    workspace_id: workspaceId,
    user_id: Number(user.id),
    title: 'Enlace',
    original_url: originalUrl,
    custom_url: customUrl,
    short_url: shortUrl,
    qr: `qr-${shortUrl}.png`,
    created_at: now,
    ...link.state,
  });
  if (link.domainId !== undefined) await moveLinkToDomain(db, Number(row.id), link.domainId);
  return { id: Number(row.id), shortUrl, customUrl, originalUrl };
}

/** Puts a link on a custom domain as the links API stores one there: domain_id, and its alias keyed under it. */
export async function moveLinkToDomain(db: Database, urlId: number, domainId: number | null) {
  const row = await db.selectFrom('urls').select('custom_url').where('id', '=', urlId).executeTakeFirstOrThrow();
  await db
    .updateTable('urls')
    .set({ domain_id: domainId, custom_url_key: row.custom_url === null ? null : domainAddressKey(domainId, row.custom_url) })
    .where('id', '=', urlId)
    .execute();
}

export { insertDomain } from '../domains/domain-rows.test-support';

/**
 * A link's rules, A/B variants and status written straight to its row, with a link_destinations row
 * for each rule's and variant's URL (as the links API stores them, except the URLs in `unnamed`,
 * left without one): what the redirect reads. Returns each destination's id, keyed `${source} ${url}`.
 */
export async function setRoute(
  db: Database,
  urlId: number,
  { rules, variants, redirectType, unnamed = [] }: { rules?: Rule[] | null; variants?: Variant[] | null; redirectType?: RedirectType; unnamed?: string[] },
): Promise<Map<string, number>> {
  const changes: { rules?: string | null; variants?: string | null; redirect_type?: number } = {};
  if (rules !== undefined) changes.rules = rules === null || rules.length === 0 ? null : JSON.stringify(rules);
  if (variants !== undefined) changes.variants = variants === null ? null : JSON.stringify(variants);
  if (redirectType !== undefined) changes.redirect_type = redirectType;
  if (Object.keys(changes).length > 0) await db.updateTable('urls').set(changes).where('id', '=', urlId).execute();
  const wanted = [...(rules ?? []).map((rule) => ['rule', rule.url] as const), ...(variants ?? []).map((variant) => ['variant', variant.url] as const)];
  for (const [source, url] of wanted) {
    if (unnamed.includes(url)) continue;
    const exists = await db.selectFrom('link_destinations').select('id').where('url_id', '=', urlId).where('source', '=', source).where('url', '=', url).executeTakeFirst();
    if (!exists) await db.insertInto('link_destinations').values({ url_id: urlId, source, url, created_at: Date.now() }).execute();
  }
  const rows = await db.selectFrom('link_destinations').select(['id', 'source', 'url']).where('url_id', '=', urlId).execute();
  return new Map(rows.map((row) => [`${row.source} ${row.url}`, Number(row.id)]));
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * A request over real HTTP with the Host header given (fetch cannot set it): through the server's
 * front (the fast path), then Fastify.
 */
export function requestOn(
  origin: string,
  host: string,
  path: string,
  { method = 'GET', headers = {}, body }: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(new URL(path, origin), { method, headers: { host, ...headers }, agent: false }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

/** The status line and body of a raw request written as it is (an HTTP/1.0 one without Host, say). */
export function rawRequest(port: number, text: string): Promise<{ statusLine: string; raw: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let raw = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (raw += chunk));
    socket.on('end', () => resolve({ statusLine: raw.split('\r\n')[0] ?? '', raw }));
    socket.on('error', reject);
  });
}

export async function clickCount(db: Database, urlId: number): Promise<number> {
  const row = await db.selectFrom('urls').select('click_count').where('id', '=', urlId).executeTakeFirstOrThrow();
  return Number(row.click_count);
}

export async function rollup(db: Database, urlId: number, dimension: RollupDimension): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('click_rollups')
    .select(['value', 'clicks'])
    .where('url_id', '=', urlId)
    .where('dimension', '=', dimension)
    .execute();
  return Object.fromEntries(rows.map((row) => [row.value, Number(row.clicks)]));
}

export const agents = {
  iphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  android:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
  ipad: 'Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1',
  desktop:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  whatsapp: 'WhatsApp/2.23.20.0 A',
};
