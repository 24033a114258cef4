import { createRequire } from 'node:module';
import type * as ioredis from 'ioredis';
import type { Redis, RedisOptions } from 'ioredis';

// ioredis and its command table are a tenth of the server bundle, and compiling them took about
// 10 ms of every start; an install without REDIS_URL never makes a client. So the module is read
// from node_modules the first time a client is made, not bundled and loaded at start.
const requireFromHere = createRequire(import.meta.url);
let RedisClient: typeof Redis | undefined;

/** A Redis client (ioredis), its module loaded on the first call. */
export function newRedis(url: string, options: RedisOptions): Redis {
  RedisClient ??= (requireFromHere('ioredis') as typeof ioredis).Redis;
  return new RedisClient(url, options);
}

export interface SubscriberHandlers {
  /** Redis confirmed the subscription: the first time, and again after each reconnect. */
  subscribed(): void;
  /** The subscription failed (the connection closed before Redis confirmed it). */
  failed(error: Error): void;
}

/**
 * A connection listening on `channels`, which subscribes again after each reconnect. ioredis can do
 * that by itself (autoResubscribe), but leaves the promise of that subscription unhandled: a
 * connection closed before Redis confirms it (a blip, or the server shutting down just then)
 * rejected it with nobody listening, and Node ends a process on an unhandled rejection.
 */
export function newSubscriber(url: string, options: RedisOptions, channels: string[], handlers: SubscriberHandlers) {
  const subscriber = newRedis(url, { ...options, autoResubscribe: false });
  const subscribe = () => subscriber.subscribe(...channels).then(() => handlers.subscribed(), (error: unknown) => handlers.failed(error as Error));
  const subscribed = subscribe();
  let connectedBefore = false;
  subscriber.on('ready', () => {
    if (connectedBefore) void subscribe();
    connectedBefore = true;
  });
  return { subscriber, subscribed };
}
