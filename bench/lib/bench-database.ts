import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import { openDatabase } from '../../server/db/database';
import { migrateToLatest } from '../../server/db/migrate';
import type { Rule, Variant } from '../../common/rules/rule-schemas';
import { insertDomain, insertLink, setRoute } from '../../server/redirect/redirect.test-support';
import type { DialectName } from '../../server/db/dialect';
import { ensurePgTrgm } from '../../server/test/postgres-schema';
import { startNode } from './processes';

/** A fresh database with one link, for a server process to use through its environment. */
export interface BenchDatabase {
  name: string;
  env: Record<string, string>;
  link: { id: number; shortUrl: string };
  /**
   * A link with an expiry date (a year ahead), one with a click limit no bench reaches, and one
   * with 20 rules (none holds for the bench's visitor, so each is tried) and a 5-variant A/B test.
   */
  statefulLinks: { dated: { shortUrl: string }; limited: { shortUrl: string }; routed: { shortUrl: string } };
  /** A link of the same shape on a verified custom domain, visited with `host` as its Host header. */
  domainLink: { shortUrl: string; host: string };
  /** The link's click count, read beside the running server. */
  clickCount(): Promise<number>;
  drop(): Promise<void>;
}

const YEAR_MS = 365 * 86_400_000;

/**
 * 20 rules the bench's visitor (wrk or autocannon: no agent, no language, no query, from
 * 127.0.0.1, so a desktop with no system, browser or country) never meets, many of them only at
 * their last condition, with every kind of condition among them.
 */
export function benchRules(now = Date.now()): Rule[] {
  const shapes: Rule['when'][] = [
    { os: ['ios'] },
    { os: ['android'] },
    { device: ['desktop'], country: ['ES', 'MX'] },
    { device: ['desktop'], language: ['es', 'pt'] },
    { device: ['mobile', 'tablet'] },
    { browser: ['safari', 'samsung'] },
    { device: ['desktop'], query: { utm_source: 'boletin' } },
    { query: { ref: '*' } },
    { device: ['desktop'], from: new Date(now + YEAR_MS).toISOString() },
    { device: ['desktop'], until: new Date(now - YEAR_MS).toISOString() },
  ];
  return Array.from({ length: 20 }, (_, i) => ({ when: shapes[i % shapes.length]!, url: `https://example.com/regla/${i}` }));
}

export const benchVariants: Variant[] = [1, 2, 3, 4, 5].map((n) => ({ url: `https://example.com/variante/${n}`, weight: 20 }));

async function insertStatefulLinks(db: Parameters<typeof insertLink>[0]) {
  const routed = await insertLink(db);
  await setRoute(db, routed.id, { rules: benchRules(), variants: benchVariants });
  return {
    dated: await insertLink(db, { state: { expires_at: Date.now() + YEAR_MS } }),
    limited: await insertLink(db, { state: { max_clicks: 1_000_000_000 } }),
    routed,
  };
}

const BENCH_DOMAIN = 'go.bench.example';

async function insertDomainLink(db: Parameters<typeof insertLink>[0]) {
  const domainId = await insertDomain(db, { hostname: BENCH_DOMAIN });
  const { shortUrl } = await insertLink(db, { domainId });
  return { shortUrl, host: BENCH_DOMAIN };
}

export async function sqliteBenchDatabase(): Promise<BenchDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'corto-bench-'));
  const handle = openDatabase({ kind: 'sqlite', dataDir });
  await migrateToLatest(handle.db);
  const link = await insertLink(handle.db);
  const statefulLinks = await insertStatefulLinks(handle.db);
  const domainLink = await insertDomainLink(handle.db);
  await handle.close();
  return {
    name: 'SQLite (embedded)',
    env: { DATA_DIR: dataDir, DATABASE_URL: '' },
    link,
    statefulLinks,
    domainLink,
    async clickCount() {
      // Read-only, beside the server that holds the folder's lock.
      const db = new SQLite(path.join(dataDir, 'corto.db'), { readonly: true });
      try {
        const row = db.prepare('select click_count from urls where id = ?').get(link.id) as { click_count: number };
        return Number(row.click_count);
      } finally {
        db.close();
      }
    },
    async drop() {
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A SQLite folder for another build of the server (BENCH_BASELINE_SERVER): that build migrates it
 * with its own migrations, so an older build runs on the schema it knows; the link is written after.
 */
export async function sqliteBaselineDatabase(serverMain: string): Promise<{ env: Record<string, string>; shortUrl: string; drop(): void }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'corto-bench-baseline-'));
  const env = { DATA_DIR: dataDir, DATABASE_URL: '' };
  await (await startNode(serverMain, env, '/api/health')).stop();
  const handle = openDatabase({ kind: 'sqlite', dataDir });
  const { shortUrl } = (await hasWorkspaces(handle.db)) ? await insertLink(handle.db) : await insertLinkBeforeWorkspaces(handle.db);
  await handle.close();
  return { env, shortUrl, drop: () => rmSync(dataDir, { recursive: true, force: true }) };
}

async function hasWorkspaces(db: Parameters<typeof insertLink>[0]): Promise<boolean> {
  return (await sql`select 1 from sqlite_master where type = 'table' and name = 'workspaces'`.execute(db)).rows.length > 0;
}

/** The same link in a schema from before migration 0021 (a build of an earlier release): its user owns it. */
async function insertLinkBeforeWorkspaces(db: Parameters<typeof insertLink>[0]): Promise<{ shortUrl: string }> {
  const now = Date.now();
  const shortUrl = `t${now.toString(36).slice(-5)}`;
  await sql`insert into users (email, name, password_hash, profile_image, created_at) values (${`r-${now}@corto.test`}, 'Prueba', 'x', 'p.png', ${now})`.execute(db);
  await sql`insert into urls (user_id, title, title_search, original_url, short_url, qr, created_at)
    values (last_insert_rowid(), 'Enlace', 'enlace', 'https://example.com/a/very/long/path?x=1', ${shortUrl}, ${`qr-${shortUrl}.png`}, ${now})`.execute(db);
  return { shortUrl };
}

export async function postgresBenchDatabase(url: string): Promise<BenchDatabase> {
  await ensurePgTrgm(url);
  const schema = `bench_${randomUUID().replaceAll('-', '')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const handle = openDatabase({ kind: 'postgres', url, schema });
  await migrateToLatest(handle.db);
  const link = await insertLink(handle.db);
  const statefulLinks = await insertStatefulLinks(handle.db);
  const domainLink = await insertDomainLink(handle.db);
  await handle.close();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'corto-bench-'));
  const separator = url.includes('?') ? '&' : '?';
  return {
    name: 'PostgreSQL',
    env: { DATA_DIR: dataDir, DATABASE_URL: `${url}${separator}options=${encodeURIComponent(`-c search_path=${schema}`)}` },
    link,
    statefulLinks,
    domainLink,
    async clickCount() {
      const result = await admin.query(`select click_count from ${schema}.urls where id = $1`, [link.id]);
      return Number(result.rows[0].click_count);
    },
    async drop() {
      await admin.query(`drop schema ${schema} cascade`);
      await admin.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The databases a bench runs on: SQLite always, PostgreSQL too when a URL is given (else it says
 * so). BENCH_DIALECT=sqlite or postgres: that one only (a long seed need not be made twice).
 */
export function benchDatabases(pgUrl: string | undefined): Array<[DialectName, () => Promise<BenchDatabase>]> {
  const only = process.env.BENCH_DIALECT;
  if (!pgUrl && only !== 'sqlite') console.log('PostgreSQL skipped: set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to include it.');
  const all: Array<[DialectName, () => Promise<BenchDatabase>]> = [['sqlite', sqliteBenchDatabase]];
  if (pgUrl) all.push(['postgres', () => postgresBenchDatabase(pgUrl)]);
  return only ? all.filter(([dialect]) => dialect === only) : all;
}
