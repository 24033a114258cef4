import type { FastifyReply, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { version } from '../../package.json';
import type { ClickWriter } from '../clicks/click-writer';
import type { DatabaseHandle } from '../db/database';
import type { RedirectAnswer } from '../redirect/redirect-answer';
import type { Reachability } from './reachability';

/**
 * What the redirect fast path counts: plain numbers, incremented with `+= 1` (no label lookup, no
 * call into prom-client), read by the registry only when /metrics is scraped.
 */
export interface HotCounters {
  /** The fast path's redirects: a cached link answered in front of Fastify. */
  redirects: number;
  /** The /:code route's (and the password form's): a link read from the database, or with a gate. */
  routeRedirects: number;
  cacheHits: number;
  cacheMisses: number;
}

/** One redirect in SAMPLE_EVERY has its answer timed: a clock read on the others costs more than the count. */
export const SAMPLE_EVERY = 32;

export interface Metrics {
  registry: Registry;
  hot: HotCounters;
  /** Seconds the fast path took to answer a sampled redirect. */
  redirectSeconds: Histogram;
  /** Fastify's onResponse hook: answers per method, route and status (cached redirects are counted apart). */
  countResponse(request: FastifyRequest, reply: FastifyReply): void;
  /** The redirect answer the Fastify routes give, counted in routeRedirects (the fast path counts its own). */
  countedAnswer(answer: RedirectAnswer): RedirectAnswer;
}

export interface MetricsOptions {
  clickWriter: Pick<ClickWriter, 'stats'>;
  database: Pick<DatabaseHandle, 'pool' | 'dialect'>;
  /** Whether the database, the store and Redis answer, asked at each scrape. */
  reachability?: Reachability;
}

/** API answers' durations, in seconds: from a cached session's few milliseconds to the deadline's 10 s. */
const API_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Corto's metrics in a registry of its own (no global state: tests build many apps in one process). */
export function createMetrics({ clickWriter, database, reachability }: MetricsOptions): Metrics {
  const registry = new Registry();
  // Process and Node figures: CPU, memory, handles, GC, and the event loop's delay (a histogram
  // from perf_hooks.monitorEventLoopDelay, sampled by Node itself).
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });

  const hot: HotCounters = { redirects: 0, routeRedirects: 0, cacheHits: 0, cacheMisses: 0 };
  const fromHot = (name: string, help: string, read: () => number) =>
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        this.reset();
        this.inc(read());
      },
    });
  // Two plain numbers, added only when scraped: the fast path pays one increment, as before.
  fromHot('corto_redirects_total', 'Redirects to a link\'s destination answered (302), whichever path answered them', () => hot.redirects + hot.routeRedirects);
  fromHot('corto_redirects_cached_total', 'The part of corto_redirects_total answered from the redirect cache by the fast path in front of Fastify', () => hot.redirects);
  fromHot('corto_link_cache_hits_total', 'Short addresses found in the redirect cache', () => hot.cacheHits);
  fromHot('corto_link_cache_misses_total', 'Short addresses not in the redirect cache (looked up in the database, or unknown)', () => hot.cacheMisses);
  const redirectSeconds = new Histogram({
    name: 'corto_redirect_duration_seconds',
    help: `Time the fast path takes to answer a cached redirect, in process (one in ${SAMPLE_EVERY} sampled)`,
    buckets: [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.05],
    registers: [registry],
  });

  const clicks = () => clickWriter.stats();
  fromHot('corto_clicks_queued_total', 'Clicks taken into the writer queue', () => clicks().accepted);
  fromHot('corto_clicks_written_total', 'Clicks written to the database', () => clicks().written);
  fromHot('corto_clicks_shed_total', 'Clicks refused because the queue was full (the database away too long)', () => clicks().shed);
  fromHot('corto_clicks_rejected_total', 'Clicks the database refused as data', () => clicks().rejected);
  fromHot('corto_click_writer_batches_total', 'Batches of clicks written', () => clicks().batches);
  fromHot('corto_click_writer_batch_seconds_total', 'Seconds spent writing batches of clicks (divide by the batches for the mean)', () => clicks().batchSeconds);
  const gauge = (name: string, help: string, read: () => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read());
      },
    });
  gauge('corto_clicks_waiting', 'Clicks waiting in the writer queue now', () => clicks().queued);
  gauge('corto_click_writer_lag_seconds', 'Age of the oldest click not yet written (0 when none waits)', () => {
    const oldest = clicks().oldestQueuedAt;
    return oldest === undefined ? 0 : Math.max(0, (Date.now() - oldest) / 1000);
  });

  // Read at each scrape: the pool exists from the first query on.
  if (database.dialect === 'postgres') {
    gauge('corto_db_pool_connections', 'PostgreSQL connections open in the pool', () => database.pool?.totalCount ?? 0);
    gauge('corto_db_pool_idle', 'PostgreSQL connections idle in the pool', () => database.pool?.idleCount ?? 0);
    gauge('corto_db_pool_waiting', 'Queries waiting for a PostgreSQL connection', () => database.pool?.waitingCount ?? 0);
  }

  new Gauge({
    name: 'corto_build_info',
    help: 'Always 1: the running version of Corto and of Node.js, as labels',
    labelNames: ['version', 'node'],
    registers: [registry],
  }).set({ version, node: process.version }, 1);
  if (reachability) {
    new Gauge({
      name: 'corto_dependency_up',
      help: 'Whether a dependency answered at this scrape (1) or not (0): database, storage, and redis when REDIS_URL is set',
      labelNames: ['dependency'],
      registers: [registry],
      async collect() {
        for (const [dependency, up] of Object.entries(await reachability())) this.set({ dependency }, up ? 1 : 0);
      },
    });
  }
  const apiSeconds = new Histogram({
    name: 'corto_api_request_duration_seconds',
    help: 'Time to answer an API call, from its arrival to its answer sent, by method and route',
    labelNames: ['method', 'route'],
    buckets: API_BUCKETS,
    registers: [registry],
  });
  const responses = new Counter({
    name: 'corto_http_responses_total',
    help: 'Answers of the Fastify routes by method, route and status (cached redirects: corto_redirects_total)',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  return {
    registry,
    hot,
    redirectSeconds,
    countResponse(request, reply) {
      // The route's pattern (/api/links/:id), never the raw path: the label set stays small.
      const route = request.routeOptions.url ?? 'unmatched';
      responses.inc({ method: request.method, route, status: reply.statusCode });
      if (route.startsWith('/api/')) apiSeconds.observe({ method: request.method, route }, reply.elapsedTime / 1000);
    },
    countedAnswer(answer) {
      return (request, response, link, countClick, limited) => {
        hot.routeRedirects += 1;
        answer(request, response, link, countClick, limited);
      };
    },
  };
}
