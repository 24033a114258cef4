import { createHash, randomBytes } from 'node:crypto';

/**
 * Where the login guard keeps its counts and marks. Each operation is atomic on its own, so a
 * shared store (Redis: INCR/PEXPIRE, SET NX PX, DECR, DEL) can take the memory one's place.
 */
export interface AttemptStore {
  /**
   * One more for key; returns the count and when it resets. The window starts at the first hit
   * (fixed) or at every hit (sliding: the count lives until windowMs of quiet).
   */
  hit(key: string, windowMs: number, sliding: boolean): Promise<{ count: number; resetAt: number }>;
  /** One fewer for key: an attempt counted that did not happen after all. */
  undo(key: string): Promise<void>;
  clear(key: string): Promise<void>;
  /** Takes key for ttlMs if nobody holds it: 0 when taken now, otherwise the milliseconds until it frees. */
  claim(key: string, ttlMs: number): Promise<number>;
  /** Marks key as present for ttlMs (again, if it already was). */
  mark(key: string, ttlMs: number): Promise<void>;
  marked(key: string): Promise<boolean>;
}

interface Entry {
  count: number;
  expiresAt: number;
}

/** A Map that forgets expired entries, and its least recently set ones beyond maxEntries. */
class ExpiringMap {
  private readonly entries = new Map<string, Entry>();
  constructor(private readonly maxEntries: number) {}

  get(key: string, now: number): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  set(key: string, entry: Entry): void {
    // Re-inserted, so insertion order stays the order of last use.
    this.entries.delete(key);
    this.entries.set(key, entry);
    // Beyond the bound, the least recently used goes (the likeliest to have expired anyway).
    for (const oldKey of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries) break;
      this.entries.delete(oldKey);
    }
  }

  delete(key: string): void {
    this.entries.delete(key);
  }
}

/**
 * One instance's store, in memory. Keys are hashed with a salt drawn at start, so the heap holds no
 * e-mail or address. Counts and marks are kept apart, so a flood of counts cannot push out the
 * marks of clients known to their accounts.
 */
export function createMemoryAttemptStore({ maxEntries = 100_000 } = {}): AttemptStore {
  const salt = randomBytes(16);
  const digest = (key: string) => createHash('sha256').update(salt).update(key).digest('base64url').slice(0, 22);
  const counts = new ExpiringMap(maxEntries);
  const marks = new ExpiringMap(maxEntries);
  return {
    async hit(key, windowMs, sliding) {
      const id = digest(key);
      const now = Date.now();
      const entry = counts.get(id, now);
      const next = entry
        ? { count: entry.count + 1, expiresAt: sliding ? now + windowMs : entry.expiresAt }
        : { count: 1, expiresAt: now + windowMs };
      counts.set(id, next);
      return { count: next.count, resetAt: next.expiresAt };
    },
    async undo(key) {
      const id = digest(key);
      const now = Date.now();
      const entry = counts.get(id, now);
      if (!entry) return;
      if (entry.count <= 1) counts.delete(id);
      else entry.count -= 1;
    },
    async clear(key) {
      counts.delete(digest(key));
    },
    async claim(key, ttlMs) {
      const id = `claim:${digest(key)}`;
      const now = Date.now();
      const held = counts.get(id, now);
      if (held) return held.expiresAt - now;
      counts.set(id, { count: 1, expiresAt: now + ttlMs });
      return 0;
    },
    async mark(key, ttlMs) {
      const now = Date.now();
      marks.set(digest(key), { count: 1, expiresAt: now + ttlMs });
    },
    async marked(key) {
      return marks.get(digest(key), Date.now()) !== undefined;
    },
  };
}

/** The same store with its keys kept apart under a name: one Redis connection, several guards that never share a count. */
export function namespacedStore(store: AttemptStore, name: string): AttemptStore {
  const named = (key: string) => `${name}\u0000${key}`;
  return {
    hit: (key, windowMs, sliding) => store.hit(named(key), windowMs, sliding),
    undo: (key) => store.undo(named(key)),
    clear: (key) => store.clear(named(key)),
    claim: (key, ttlMs) => store.claim(named(key), ttlMs),
    mark: (key, ttlMs) => store.mark(named(key), ttlMs),
    marked: (key) => store.marked(named(key)),
  };
}
