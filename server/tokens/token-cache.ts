import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database';
import { type LinkBroadcast, openLinkBroadcast } from '../redirect/link-broadcast';
import { findTokenByHash, markTokenUsed, type TokenOwner } from './tokens.queries';

// Bearer requests look their token up here, not in the database each time: a bearer request must
// cost no more than a cookie one. Revoking a token (or ending its user) forgets it on this
// instance at once and, through Redis when REDIS_URL is set, on every other one, on the same
// channel mechanism as the redirect cache. An entry also ages out, as a backstop.

const CHANNEL = 'corto:tokens:forget';
const ENTRY_TTL_MS = 60 * 1000;
/** last_used_at is written at most this often per token: a write per request would cost more than the lookup saves. */
const LAST_USED_EVERY_MS = 60 * 1000;

interface Entry {
  owner: TokenOwner;
  cachedAt: number;
}

export interface TokenCache {
  /** The live token of a secret's hash, or undefined (unknown, revoked or expired). */
  lookup(hash: string, now?: number): Promise<TokenOwner | undefined>;
  /** Forgets revoked tokens here and on every instance. */
  forget(hashes: string[]): Promise<void>;
  /** Forgets every token of a user (account deleted, disabled) here and on every instance. */
  forgetUser(userId: number): Promise<void>;
  /** Resolves once this instance hears other instances' revocations. */
  listening: Promise<void>;
  close(): Promise<void>;
}

export function createTokenCache({
  db,
  redisUrl,
  log,
  maxEntries = 10_000,
}: {
  db: Database;
  redisUrl: string | undefined;
  log: FastifyBaseLogger;
  maxEntries?: number;
}): TokenCache {
  const entries = new Map<string, Entry>();
  const userKey = (userId: number) => `user:${userId}`;

  const drop = (keys: string[]) => {
    for (const key of keys) {
      if (!key.startsWith('user:')) {
        entries.delete(key);
        continue;
      }
      const userId = Number(key.slice('user:'.length));
      for (const [hash, entry] of entries) if (entry.owner.user.id === userId) entries.delete(hash);
    }
  };
  const broadcast: LinkBroadcast | undefined = redisUrl
    ? openLinkBroadcast({ redisUrl, log, channel: CHANNEL, onForget: drop, onReconnect: () => entries.clear() })
    : undefined;

  const touch = (owner: TokenOwner, now: number) => {
    if (owner.lastUsedAt !== null && now - owner.lastUsedAt < LAST_USED_EVERY_MS) return;
    owner.lastUsedAt = now;
    markTokenUsed(db, owner.tokenId, now).catch((error: unknown) => log.warn({ err: error }, 'could not record a token use'));
  };

  return {
    async lookup(hash, now = Date.now()) {
      let entry = entries.get(hash);
      if (!entry || now - entry.cachedAt >= ENTRY_TTL_MS) {
        const owner = await findTokenByHash(db, hash);
        if (!owner) {
          entries.delete(hash);
          return undefined;
        }
        entry = { owner, cachedAt: now };
        entries.delete(hash);
        if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
        entries.set(hash, entry);
      }
      const { owner } = entry;
      if (owner.expiresAt !== null && owner.expiresAt <= now) return undefined;
      touch(owner, now);
      return owner;
    },
    async forget(hashes) {
      drop(hashes);
      await broadcast?.publish(hashes);
    },
    async forgetUser(userId) {
      drop([userKey(userId)]);
      await broadcast?.publish([userKey(userId)]);
    },
    listening: broadcast?.subscribed ?? Promise.resolve(),
    async close() {
      await broadcast?.close();
    },
  };
}
