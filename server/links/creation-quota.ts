import { linkMessages } from '@common/links/link-messages';
import type { FastifyReply } from 'fastify';
import type { Database } from '../db/database';
import { AppError } from '../http/app-error';

const HOUR_MS = 60 * 60 * 1000;

/**
 * When the user's `perHour`-th newest link of the last hour was made, if there is one: then the
 * hour is full, and a place frees up an hour after it. One walk of at most `perHour` entries of
 * the urls(user_id, created_at) index.
 */
async function fullHourSince(db: Database, userId: number, perHour: number, now: number): Promise<number | undefined> {
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

export interface CreationQuota {
  /**
   * Runs `create` if the user has made fewer than LINKS_PER_HOUR links in the last hour;
   * otherwise answers 429 with Retry-After (seconds until a place frees up).
   */
  run<T>(userId: number, reply: FastifyReply, create: () => Promise<T>): Promise<T>;
}

/**
 * LINKS_PER_HOUR per account, over a sliding hour, counted from the database: exact across
 * restarts and instances, with nothing to keep in memory. One account's creations run one at a
 * time while the limit is on, so simultaneous requests cannot all pass the same count; other
 * accounts are not held up.
 */
export function createCreationQuota(db: Database, perHour: number): CreationQuota {
  if (perHour <= 0) return { run: (_userId, _reply, create) => create() };
  const queues = new Map<number, Promise<void>>();

  const serially = <T>(userId: number, task: () => Promise<T>): Promise<T> => {
    const run = (queues.get(userId) ?? Promise.resolve()).then(task);
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    queues.set(userId, settled);
    // Forget the user once their queue is empty: the map holds only accounts creating right now.
    void settled.then(() => {
      if (queues.get(userId) === settled) queues.delete(userId);
    });
    return run;
  };

  return {
    run(userId, reply, create) {
      return serially(userId, async () => {
        const now = Date.now();
        const fullSince = await fullHourSince(db, userId, perHour, now);
        if (fullSince !== undefined) {
          const seconds = Math.max(1, Math.ceil((fullSince + HOUR_MS - now) / 1000));
          reply.header('retry-after', String(seconds));
          throw new AppError('rate_limited', linkMessages.tooManyLinks);
        }
        return create();
      });
    },
  };
}
