import type { FastifyBaseLogger } from 'fastify';
import { newRedis, newSubscriber } from '../redis/redis-client';

// Several instances behind a load balancer each keep their own cache; a delete on one is
// published here so every other forgets the link too.
const LINKS_CHANNEL = 'corto:links:forget';
// A delete must not hang on an unreachable Redis: ioredis queues the message and sends it on
// reconnect; we stop waiting after this long.
const PUBLISH_WAIT_MS = 1000;
// The message (a JSON string rather than a list of keys) that empties every instance's cache.
const FORGET_ALL = '*';

export interface LinkBroadcast {
  /** Resolves once this instance listens: deletions published before that cannot reach it. */
  subscribed: Promise<void>;
  publish(keys: string[]): Promise<void>;
  /** Every instance reloads the operator's shared state and empties its cache. */
  publishForgetAll(): Promise<void>;
  close(): Promise<void>;
}

export interface LinkBroadcastOptions {
  redisUrl: string;
  log: FastifyBaseLogger;
  /** The Redis channel; the link cache's by default (the API token cache has its own). */
  channel?: string;
  onForget(keys: string[]): void;
  /** A subscriber that was cut off may have missed messages: the cache starts over. */
  onReconnect(): void;
  /** Another instance asked everyone to start over (forgetAll); the link cache's only. */
  onForgetAll?(): Promise<void>;
}

export function openLinkBroadcast({ redisUrl, log, channel = LINKS_CHANNEL, onForget, onReconnect, onForgetAll }: LinkBroadcastOptions): LinkBroadcast {
  const options = { lazyConnect: false, maxRetriesPerRequest: null };
  const publisher = newRedis(redisUrl, options);
  let warned = false;

  const onError = (error: Error) => {
    // ioredis retries on its own; one line per outage is enough.
    if (!warned) log.warn({ err: error }, 'Redis unavailable: link deletions reach other instances once it is back');
    warned = true;
  };
  // Links cached before we listened, or while we were cut off, may have been deleted meanwhile:
  // the cache starts over each time the subscription is (again) in place.
  const { subscriber, subscribed } = newSubscriber(redisUrl, options, [channel], { subscribed: onReconnect, failed: onError });
  publisher.on('error', onError);
  subscriber.on('error', onError);
  subscriber.on('ready', () => {
    warned = false;
  });
  subscriber.on('message', (_channel: string, message: string) => {
    try {
      const keys: unknown = JSON.parse(message);
      if (keys === FORGET_ALL) return void onForgetAll?.();
      if (Array.isArray(keys)) onForget(keys.filter((key): key is string => typeof key === 'string'));
    } catch {
      log.warn('ignored a malformed link-forget message');
    }
  });

  const publish = async (message: unknown) => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(resolve, PUBLISH_WAIT_MS, 'timeout')));
    try {
      const result = await Promise.race([publisher.publish(channel, JSON.stringify(message)), timeout]);
      if (result === 'timeout') log.warn({ message }, 'Redis slow: link deletion will reach other instances later');
    } catch (error) {
      log.warn({ err: error, message }, 'could not publish a link deletion to other instances');
    } finally {
      clearTimeout(timer);
    }
  };

  return {
    subscribed,
    publish: (keys) => publish(keys),
    publishForgetAll: () => publish(FORGET_ALL),
    async close() {
      subscriber.disconnect();
      await publisher.quit().catch(() => publisher.disconnect());
    },
  };
}
