import type { FastifyReply, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ClickWriter } from '../clicks/click-writer';
import type { DatabaseHandle } from '../db/database';

/**
 * What the redirect fast path counts: plain numbers, incremented with `+= 1` (no label lookup, no
 * call into prom-client), read by the registry only when /metrics is scraped.
 */
export interface HotCounters {
  redirects: number;
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
}

export interface MetricsOptions {
  clickWriter: Pick<ClickWriter, 'stats'>;
  database: Pick<DatabaseHandle, 'pool' | 'dialect'>;
}

/** Corto's metrics in a registry of its own (no global state: tests build many apps in one process). */
export function createMetrics({ clickWriter, database }: MetricsOptions): Metrics {
  const registry = new Registry();
  // Process and Node figures: CPU, memory, handles, GC, and the event loop's delay (a histogram
  // from perf_hooks.monitorEventLoopDelay, sampled by Node itself).
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });

  const hot: HotCounters = { redirects: 0, cacheHits: 0, cacheMisses: 0 };
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
  fromHot('corto_redirects_total', 'Redirects answered from the cache by the fast path (302 and 301)', () => hot.redirects);
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
      responses.inc({ method: request.method, route: request.routeOptions.url ?? 'unmatched', status: reply.statusCode });
    },
  };
}
