import type { ClickEventData } from '@common/webhooks/webhook-schemas';
import type { FastifyBaseLogger } from 'fastify';
import { newRedis, newSubscriber } from '../redis/redis-client';
import type { VisitBatch } from '../clicks/visit-batch';
import type { Database } from '../db/database';
import { createClickEventBuilder } from './live-feed-events';

// The live feed's fan-out: clicks reach whoever watches their link, on whichever instance they were
// recorded. The click writer hands over each batch it wrote; only visits of links that somebody
// watches somewhere are described and published, so a batch nobody watches costs a scan of its
// link ids (none at all while nobody watches anything).
//
// With Redis, instances tell each other which links they watch (a link's first watcher at once, the
// whole list every ANNOUNCE_EVERY_MS, and on request when an instance starts listening) and forget
// what is not repeated within INTEREST_TTL_MS; events go through one channel that every instance
// hears, its own included, and each hands them to its local watchers. Without Redis it all stays
// in the process.

const CLICKS_CHANNEL = 'corto:live:clicks';
const WATCH_CHANNEL = 'corto:live:watching';
/** Asks every instance to say what it watches (an instance that just started listening). */
const WHO_WATCHES = '?';
const ANNOUNCE_EVERY_MS = 15_000;
const INTEREST_TTL_MS = 3 * ANNOUNCE_EVERY_MS;
/**
 * At most this many events per written batch (the latest): the feed is something to look at, not
 * a record (webhooks and the statistics are), and a link clicked thousands of times a second must
 * not turn into megabytes on Redis.
 */
export const LIVE_EVENTS_PER_BATCH = 500;

export type ClickListener = (event: ClickEventData) => void;

export interface LiveFeed {
  /** Resolves once this instance hears the others (at once without Redis). */
  listening: Promise<void>;
  /** Hands the link's clicks to `listener` as they are written, from every instance; returns the unsubscribe. */
  subscribe(linkId: number, listener: ClickListener): () => void;
  /** The click writer's hook: called with each batch once written, synchronously. */
  written(batch: VisitBatch): void;
  /** Whether anybody, on any instance, watches the link (as far as this instance knows). */
  watched(linkId: number): boolean;
  close(): Promise<void>;
}

export interface LiveFeedOptions {
  db: Database;
  publicBaseUrl: string;
  redisUrl: string | undefined;
  log: FastifyBaseLogger;
}

export function createLiveFeed({ db, publicBaseUrl, redisUrl, log }: LiveFeedOptions): LiveFeed {
  const build = createClickEventBuilder({ db, publicBaseUrl, log });
  const local = new Map<number, Set<ClickListener>>();
  /** Links other instances watch, until when (ms since the epoch). */
  const remote = new Map<number, number>();

  const deliver = (events: ClickEventData[]) => {
    for (const event of events) {
      for (const listener of local.get(event.linkId) ?? []) {
        try {
          listener(event);
        } catch (error) {
          log.warn({ err: error }, 'live feed: a watcher failed');
        }
      }
    }
  };

  const redis = redisUrl ? openRedisFanOut(redisUrl, log, { deliver, local: () => [...local.keys()], remote }) : undefined;

  const watched = (linkId: number) => {
    if (local.has(linkId)) return true;
    const until = remote.get(linkId);
    return until !== undefined && until > Date.now();
  };

  return {
    listening: redis?.listening ?? Promise.resolve(),

    subscribe(linkId, listener) {
      let listeners = local.get(linkId);
      if (!listeners) {
        local.set(linkId, (listeners = new Set()));
        redis?.announce([linkId]);
      }
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && local.get(linkId) === listeners) local.delete(linkId);
      };
    },

    written(batch) {
      if (local.size === 0 && remote.size === 0) return;
      const visits = batch.visitsOf(watched).slice(-LIVE_EVENTS_PER_BATCH);
      if (visits.length === 0) return;
      build(visits).then(
        (events) => {
          if (events.length === 0) return;
          if (redis) redis.publish(events);
          else deliver(events);
        },
        (error: unknown) => log.warn({ err: error }, 'live feed: could not describe written clicks'),
      );
    },

    watched,

    async close() {
      local.clear();
      await redis?.close();
    },
  };
}

interface FanOutParts {
  deliver(events: ClickEventData[]): void;
  /** The links watched on this instance now. */
  local(): number[];
  remote: Map<number, number>;
}

/** Two connections as in link-broadcast.ts: one publishes, one listens (and subscribes again after a reconnect). */
function openRedisFanOut(redisUrl: string, log: FastifyBaseLogger, { deliver, local, remote }: FanOutParts) {
  const options = { lazyConnect: false, maxRetriesPerRequest: null };
  const publisher = newRedis(redisUrl, options);
  let warned = false;
  const onError = (error: Error) => {
    if (!warned) log.warn({ err: error }, 'Redis unavailable: the live feed reaches other instances once it is back');
    warned = true;
  };
  // A subscriber that was cut off may have missed what the others watch: once listening again, it
  // asks them, and says what is watched here.
  const { subscriber, subscribed: listening } = newSubscriber(redisUrl, options, [CLICKS_CHANNEL, WATCH_CHANNEL], {
    subscribed: () => {
      send(WATCH_CHANNEL, WHO_WATCHES);
      announce(local());
    },
    failed: onError,
  });
  publisher.on('error', onError);
  subscriber.on('error', onError);

  const send = (channel: string, message: unknown) => {
    publisher.publish(channel, JSON.stringify(message)).catch((error: unknown) => log.warn({ err: error }, 'live feed: could not publish'));
  };
  const announce = (linkIds: number[]) => {
    if (linkIds.length > 0) send(WATCH_CHANNEL, linkIds);
  };

  subscriber.on('message', (channel: string, message: string) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(message);
    } catch {
      return log.warn({ channel }, 'live feed: ignored a malformed message');
    }
    if (channel === CLICKS_CHANNEL) {
      if (Array.isArray(parsed)) deliver(parsed as ClickEventData[]);
      return;
    }
    if (parsed === WHO_WATCHES) return announce(local());
    if (!Array.isArray(parsed)) return;
    const until = Date.now() + INTEREST_TTL_MS;
    for (const id of parsed) if (typeof id === 'number') remote.set(id, until);
  });
  subscriber.on('ready', () => {
    warned = false;
  });

  const timer = setInterval(() => {
    announce(local());
    const now = Date.now();
    for (const [id, until] of remote) if (until <= now) remote.delete(id);
  }, ANNOUNCE_EVERY_MS);
  timer.unref();

  return {
    listening,
    announce,
    publish: (events: ClickEventData[]) => send(CLICKS_CHANNEL, events),
    async close() {
      clearInterval(timer);
      subscriber.disconnect();
      await publisher.quit().catch(() => publisher.disconnect());
    },
  };
}
