import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import { isBotAgent } from '../clicks/bots';
import type { Database, DatabaseHandle } from '../db/database';

// A link with max_clicks lets exactly that many human visits through, whatever the concurrency and
// however many instances share the database, without a database write per visit:
//
// - SQLite: one process serves a data folder (the folder's lock), so the count lives in memory, per
//   database handle (loaded once from urls.limit_used), and every place taken is written with its
//   click, by the click writer's batch, in the same transaction as click_count. A restart (SIGTERM
//   drains the queue) resumes exactly; a crash loses what it loses of the clicks (at most
//   CLICK_FLUSH_MS of them), and those visitors' places with them.
// - PostgreSQL: each instance claims places in blocks with one conditional UPDATE (never more than
//   are left, so the sum of every block is at most max_clicks) and lets visitors through from its
//   block without the database. A block is never more than an eighth of the places left (the last
//   ones go one or two at a time), doubles while it is used up within a second and halves when it is
//   not, and whatever is left of it a second after its claim, or when the link is edited or the instance closes, is given back. An
//   instance killed outright loses its block: at most an eighth of what was left, and 1,024.
// Links without a limit never come here.

/** Places held by an instance past this are given back, so another may use them. */
const HOLD_MS = 1000;
const FIRST_BLOCK = 16;
const MAX_BLOCK = 1024;
/** A block is at most this fraction of the places still unclaimed. */
const SHARE_OF_REST = 8;

const BOT_MEMO_SIZE = 1000;

export interface ClickLimits {
  /**
   * Takes a place now if one is at hand (SQLite: counted in memory; PostgreSQL: held in this
   * instance's block). False says nothing: take() decides, going to the database if it must.
   */
  takeNow(urlId: number): boolean;
  /** Takes a place; false when the limit is reached (or gone, or the link is). */
  take(urlId: number): Promise<boolean>;
  /** Whether no place is left, for visits that take none (bots, HEAD, the password form). */
  isReached(urlId: number): Promise<boolean>;
  /** A place taken is written with its click (SQLite): the visit is recorded as `limited`. */
  readonly countsWithClicks: boolean;
  /** After an edit of the link's limit on this instance (max_clicks before and after; null, null: deleted). */
  changed(urlId: number, maxBefore: number | null, maxAfter: number | null): void;
  /** The redirect cache forgot the link (an edit here or, through Redis, elsewhere). */
  forgotten(urlId: number): void;
  /** Gives back what this instance holds. */
  close(): Promise<void>;
}

const memoryLimits = new WeakMap<DatabaseHandle, ClickLimits>();

/** SQLite: one per handle, which two apps in one process may share; PostgreSQL: one per instance. */
export function createClickLimits(database: DatabaseHandle, log: FastifyBaseLogger): ClickLimits {
  if (database.dialect === 'postgres') return blockLimits(database.db, log);
  let limits = memoryLimits.get(database);
  if (!limits) memoryLimits.set(database, (limits = memoryLimitsOf(database.db)));
  return limits;
}

async function limitRow(db: Database, urlId: number) {
  return db.selectFrom('urls').select(['limit_used', 'max_clicks']).where('id', '=', urlId).executeTakeFirst();
}

interface Count {
  used: number;
  /** -1: no limit (any more), or no link: no place to take. */
  max: number;
}

function memoryLimitsOf(db: Database): ClickLimits {
  const counts = new Map<number, Count>();
  const loading = new Map<number, Promise<Count>>();

  const load = (urlId: number): Promise<Count> | Count => {
    const known = counts.get(urlId);
    if (known) return known;
    let pending = loading.get(urlId);
    if (!pending) {
      pending = limitRow(db, urlId)
        .then((row) => {
          const count = { used: Number(row?.limit_used ?? 0), max: row?.max_clicks ?? -1 };
          counts.set(urlId, count);
          return count;
        })
        .finally(() => loading.delete(urlId));
      loading.set(urlId, pending);
    }
    return pending;
  };
  const takeFrom = (count: Count) => {
    if (count.used >= count.max) return false;
    count.used += 1;
    return true;
  };

  return {
    countsWithClicks: true,
    takeNow(urlId) {
      const count = counts.get(urlId);
      return count !== undefined && takeFrom(count);
    },
    async take(urlId) {
      return takeFrom(await load(urlId));
    },
    async isReached(urlId) {
      const count = await load(urlId);
      return count.used >= count.max;
    },
    changed(urlId, maxBefore, maxAfter) {
      const count = counts.get(urlId);
      // A limit changed keeps its count (the clicks still queued are in it); one set anew starts
      // from what the edit stored, read again on the next visit.
      if (count && maxBefore !== null && maxAfter !== null) count.max = maxAfter;
      else counts.delete(urlId);
    },
    forgotten() {},
    async close() {},
  };
}

interface Block {
  /** Places claimed and not used yet. */
  held: number;
  claimedAt: number;
  /** The next claim's size. */
  size: number;
  claiming?: Promise<void>;
}

function blockLimits(db: Database, log: FastifyBaseLogger): ClickLimits {
  const blocks = new Map<number, Block>();
  const giveBack = (urlId: number, places: number) => {
    if (places <= 0) return Promise.resolve();
    // Only while a limit is set: places of a limit removed mean nothing any more.
    return db
      .updateTable('urls')
      .set({ limit_used: sql`greatest(limit_used - ${places}, 0)` })
      .where('id', '=', urlId)
      .where('max_clicks', 'is not', null)
      .execute()
      .then(
        () => {},
        (error: unknown) => log.warn({ err: error, urlId }, 'click limit: could not give back unused places'),
      );
  };
  const release = (urlId: number) => {
    const block = blocks.get(urlId);
    if (!block) return Promise.resolve();
    blocks.delete(urlId);
    return giveBack(urlId, block.held);
  };

  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [urlId, block] of blocks) {
      if (block.held > 0 && !block.claiming && now - block.claimedAt >= HOLD_MS) {
        const places = block.held;
        block.held = 0;
        block.size = Math.max(FIRST_BLOCK, block.size / 2); // more than this link needs here
        void giveBack(urlId, places);
      }
    }
  }, HOLD_MS);
  sweep.unref();

  const claim = async (urlId: number, block: Block) => {
    const wanted = block.size;
    // One statement: the row is locked, the grant is at most what is left (and an eighth of it).
    const result = await sql<{ granted: number }>`
      with old as (
        select id, limit_used, max_clicks from urls
        where id = ${urlId} and max_clicks is not null and limit_used < max_clicks for update
      )
      update urls set limit_used = urls.limit_used + least(${wanted}::int, greatest(1, (old.max_clicks - old.limit_used) / ${SHARE_OF_REST}))
      from old where urls.id = old.id
      returning least(${wanted}::int, greatest(1, (old.max_clicks - old.limit_used) / ${SHARE_OF_REST})) as granted`.execute(db);
    const granted = Number(result.rows[0]?.granted ?? 0);
    // Released meanwhile (an edit): these places go straight back.
    if (blocks.get(urlId) !== block) {
      await giveBack(urlId, granted);
      return -1;
    }
    const now = Date.now();
    // Used up within the hold: a busier link gets a bigger block next time.
    if (granted > 0 && now - block.claimedAt < HOLD_MS) block.size = Math.min(MAX_BLOCK, block.size * 2);
    block.held += granted;
    block.claimedAt = now;
    return granted;
  };

  const blockOf = (urlId: number) => {
    let block = blocks.get(urlId);
    if (!block) blocks.set(urlId, (block = { held: 0, claimedAt: 0, size: FIRST_BLOCK }));
    return block;
  };

  const takeNow = (urlId: number) => {
    const block = blocks.get(urlId);
    if (!block || block.held === 0) return false;
    block.held -= 1;
    return true;
  };

  return {
    countsWithClicks: false,
    takeNow,
    async take(urlId) {
      for (;;) {
        if (takeNow(urlId)) return true;
        const block = blockOf(urlId);
        if (block.claiming) {
          // One claim at a time per link: the visitors waiting share what it brings.
          await block.claiming;
          continue;
        }
        let granted = 0;
        block.claiming = claim(urlId, block).then((n) => {
          granted = n;
        });
        try {
          await block.claiming;
        } finally {
          block.claiming = undefined;
        }
        if (granted === 0) return takeNow(urlId);
        // granted -1: the block was released meanwhile; claim again for the link as it is now.
      }
    },
    async isReached(urlId) {
      if ((blocks.get(urlId)?.held ?? 0) > 0) return false;
      const row = await limitRow(db, urlId);
      return !row || row.max_clicks === null || row.limit_used >= row.max_clicks;
    },
    changed(urlId) {
      void release(urlId);
    },
    forgotten(urlId) {
      void release(urlId);
    },
    async close() {
      clearInterval(sweep);
      await Promise.all([...blocks.keys()].map(release));
    },
  };
}

const botMemo = new Map<string, boolean>();

/**
 * A person's visit, which uses up a click of a limit: a GET or a form post (not HEAD) by something that is not a
 * bot or a link preview. The bot test costs microseconds per User-Agent, so the answer is kept for
 * the last agents seen.
 */
export function isHumanVisit(method: string | undefined, userAgent: string | undefined): boolean {
  if (method === 'HEAD') return false;
  const agent = userAgent ?? '';
  let bot = botMemo.get(agent);
  if (bot === undefined) {
    bot = isBotAgent(agent);
    if (botMemo.size >= BOT_MEMO_SIZE) botMemo.delete(botMemo.keys().next().value!);
    botMemo.set(agent, bot);
  }
  return !bot;
}

export async function passwordHashOf(db: Database, urlId: number): Promise<string | null | undefined> {
  const row = await db.selectFrom('urls').select('password_hash').where('id', '=', urlId).executeTakeFirst();
  return row?.password_hash;
}
