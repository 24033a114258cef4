import { linkMessages } from '@common/links/link-messages';
import type { FastifyReply } from 'fastify';
import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/database';
import { dialectOf } from '../db/dialect';
import type { DB } from '../db/schema';
import { AppError } from '../http/app-error';

const HOUR_MS = 60 * 60 * 1000;
/** The first key of PostgreSQL's two-key advisory lock: this quota's (the second is the user's id). */
const QUOTA_LOCK = 0x51_00_7a;

type Reader = Database | Transaction<DB>;

/**
 * When the user's `perHour`-th newest link of the last hour was made, if there is one: then the
 * hour is full, and a place frees up an hour after it. One walk of at most `perHour` entries of
 * the urls(user_id, created_at) index.
 */
async function fullHourSince(db: Reader, userId: number, perHour: number, now: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('urls')
    .select('created_at')
    .where('user_id', '=', userId)
    .where('created_at', '>', now - HOUR_MS)
    .orderBy('created_at', 'desc')
    .limit(1)
    .offset(perHour - 1)
    .executeTakeFirst();
  return row ? Number(row.created_at) : undefined;
}

/** Links the user made in the last hour, counted up to `perHour` (the same walk of the index). */
async function madeThisHour(db: Reader, userId: number, perHour: number, now: number): Promise<number> {
  const recent = db.selectFrom('urls').select('id').where('user_id', '=', userId).where('created_at', '>', now - HOUR_MS).limit(perHour);
  const row = await db
    .selectFrom(recent.as('recent'))
    .select((eb) => eb.fn.countAll<number | string>().as('made'))
    .executeTakeFirstOrThrow();
  return Number(row.made);
}

/** Seconds until the user may create again: 0 when the hour is not full. */
async function secondsUntilFree(db: Reader, userId: number, perHour: number, now: number): Promise<number> {
  const fullSince = await fullHourSince(db, userId, perHour, now);
  return fullSince === undefined ? 0 : Math.max(1, Math.ceil((fullSince + HOUR_MS - now) / 1000));
}

/** Run inside the transaction that inserts links: throws (429) when the hour has no place left. */
export type ClaimOne = (trx: Transaction<DB>) => Promise<void>;

export interface CreationQuota {
  readonly perHour: number;
  /**
   * Runs `create` if the user has made fewer than LINKS_PER_HOUR links in the last hour;
   * otherwise answers 429 with Retry-After (seconds until a place frees up). `create` passes
   * `claim` to the transaction that inserts the link, where the count is taken again under a lock.
   */
  run<T>(userId: number, reply: FastifyReply | undefined, create: (claim: ClaimOne) => Promise<T>): Promise<T>;
  /**
   * Inside the transaction that inserts `wanted` links: how many of them the hour still has room
   * for. The account's quota is held until that transaction ends (PostgreSQL: an advisory lock on
   * the account, so instances sharing the database queue on it; SQLite: its one writer's
   * transaction), so no two creations can both take the last place, on one instance or several.
   */
  claim(trx: Transaction<DB>, userId: number, wanted: number): Promise<number>;
  /** Places left this hour, read without a lock: an estimate to spare work, never the decision. */
  left(userId: number): Promise<number>;
  /** Seconds until the user may create again (0: now). */
  retryAfter(userId: number): Promise<number>;
}

/**
 * LINKS_PER_HOUR per account, over a sliding hour, counted from the database in the very
 * transaction that inserts: exact across restarts and instances, with nothing kept in memory.
 * Single creations, bulk bodies and imported rows all count against it.
 */
export function createCreationQuota(db: Database, perHour: number): CreationQuota {
  const refuse = (reply: FastifyReply | undefined, seconds: number) => {
    reply?.header('retry-after', String(Math.max(1, seconds)));
    return new AppError('rate_limited', linkMessages.tooManyLinks);
  };
  const claim = async (trx: Transaction<DB>, userId: number, wanted: number) => {
    if (perHour <= 0) return wanted;
    if (dialectOf(trx) === 'postgres') await sql`select pg_advisory_xact_lock(${QUOTA_LOCK}, ${userId}::int)`.execute(trx);
    const made = await madeThisHour(trx, userId, perHour, Date.now());
    return Math.max(0, Math.min(wanted, perHour - made));
  };
  return {
    perHour,
    claim,
    async left(userId) {
      return perHour <= 0 ? Number.POSITIVE_INFINITY : perHour - (await madeThisHour(db, userId, perHour, Date.now()));
    },
    async retryAfter(userId) {
      return perHour <= 0 ? 0 : secondsUntilFree(db, userId, perHour, Date.now());
    },
    async run(userId, reply, create) {
      if (perHour <= 0) return create(async () => {});
      // Full already: answered before a QR is drawn.
      const seconds = await secondsUntilFree(db, userId, perHour, Date.now());
      if (seconds > 0) throw refuse(reply, seconds);
      return create(async (trx) => {
        if ((await claim(trx, userId, 1)) === 0) throw refuse(reply, await secondsUntilFree(trx, userId, perHour, Date.now()));
      });
    },
  };
}
