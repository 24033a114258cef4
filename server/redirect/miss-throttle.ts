import type { SharedLimiter } from '../rate-limits/shared-limiter';

const MINUTE_MS = 60 * 1000;
/** Clients counted at once at most (~100 bytes each): a bound on memory whatever the traffic. */
const MAX_CLIENTS = 100_000;

export interface MissThrottle {
  /** Seconds this client must wait before its next lookup of a code not in the cache; 0 = go ahead. */
  waitOf(client: string, now?: number): number;
  /**
   * The client asked for a short code that does not exist. Settles once the shared count (if
   * any) has heard of it: a 404 page may wait for that, a redirect never does.
   */
  miss(client: string, now?: number): Promise<void>;
  /** Clients counted now (for tests of the memory bound). */
  readonly size: number;
}

export interface MissThrottleOptions {
  /** Unknown codes allowed per client per minute; 0 turns the throttle off. */
  limit: number;
  maxClients?: number;
  /** How long a client's count lasts from its first miss; a minute unless told. */
  windowMs?: number;
  /**
   * The same count kept by every instance (Redis): each miss is told to it too, and a client it
   * refuses (or whose last miss it just counted) waits here as well, so misses spread over
   * instances add up. waitOf still answers from memory, so a lookup never waits on Redis.
   */
  shared?: SharedLimiter;
}

/**
 * Unknown short codes counted per client (clientKey: an IPv4 address, an IPv6 /64) over a minute
 * from its first miss. A client over the limit waits for the end of that minute before any code
 * that is not cached is looked up: guessing stops, and its guesses stop reaching the database.
 * Finished minutes are dropped once a minute, so memory holds the last minute's clients at most,
 * and never more than maxClients (beyond that, new clients go uncounted until some minute ends,
 * rather than anyone being refused for it).
 */
export function createMissThrottle({ limit, maxClients = MAX_CLIENTS, windowMs = MINUTE_MS, shared }: MissThrottleOptions): MissThrottle {
  const WINDOW_MS = windowMs;
  if (limit <= 0) return { waitOf: () => 0, miss: async () => {}, size: 0 };
  const clients = new Map<string, { since: number; misses: number }>();
  /** Clients the shared count refused, until when. */
  const refused = new Map<string, number>();
  let sweptAt = 0;
  const sweep = (now: number) => {
    if (now - sweptAt < WINDOW_MS) return;
    sweptAt = now;
    for (const [client, entry] of clients) if (now - entry.since >= WINDOW_MS) clients.delete(client);
    for (const [client, until] of refused) if (until <= now) refused.delete(client);
  };
  const tellShared = async (client: string) => {
    if (!shared) return;
    await shared.consume(client).then((result) => {
      // Refused, or this miss took the last one: the client waits here from now on.
      if ((!result.allowed || result.remaining === 0) && (refused.size < maxClients || refused.has(client))) {
        refused.set(client, Date.now() + result.resetSeconds * 1000);
      }
    });
  };
  const current = (client: string, now: number) => {
    const entry = clients.get(client);
    return entry && now - entry.since < WINDOW_MS ? entry : undefined;
  };
  return {
    waitOf(client, now = Date.now()) {
      const until = refused.get(client);
      if (until !== undefined && until > now) return Math.max(1, Math.ceil((until - now) / 1000));
      const entry = current(client, now);
      if (!entry || entry.misses < limit) return 0;
      return Math.max(1, Math.ceil((entry.since + WINDOW_MS - now) / 1000));
    },
    async miss(client, now = Date.now()) {
      sweep(now);
      const entry = current(client, now);
      if (entry) entry.misses += 1;
      else if (clients.size < maxClients || clients.has(client)) clients.set(client, { since: now, misses: 1 });
      await tellShared(client);
    },
    get size() {
      return clients.size;
    },
  };
}
