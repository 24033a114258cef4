import { createHash } from 'node:crypto';
import { errorMessages } from '@common/messages';
import type { FastifyRequest } from 'fastify';
import type { Database } from '../db/database';
import { AppError } from '../http/app-error';
import { claimKey, deleteKeysBefore, dropClaim, findKey, type IdempotencyKeyRow, saveAnswer } from './idempotency.queries';

// Idempotency-Key for creations: the same key with the same body gives the first answer again and
// creates nothing; with another body it is refused (422); while the first request still runs, a
// second one is refused (409) rather than run twice. Only successes are kept: a refused request
// (a taken alias, say) frees its key, so the caller can fix the data and try again with it.
// A first answer that names a link deleted since is not given again (409): a retry must not
// answer 201 with a link that is gone, nor bring back one its owner deleted.

/** How long a key holds its answer. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;
/** A claim still unanswered after this long belongs to a request that died with its server. */
export const ABANDONED_CLAIM_MS = 2 * 60 * 1000;
/** Expired keys are swept at most this often per instance, on the way through a keyed request. */
const SWEEP_EVERY_MS = 60 * 1000;

// Printable ASCII without spaces, as HTTP header values allow safely; long enough for any UUID or hash.
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** The request's Idempotency-Key, checked; undefined when it sent none. */
export function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const value = request.headers['idempotency-key'];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !KEY_PATTERN.test(value)) {
    throw new AppError('validation', errorMessages.idempotencyKeyInvalid);
  }
  return value;
}

export interface Answer<Body, Status extends number = number> {
  /** The route's own status, stored with the body and given again. */
  statusCode: Status;
  body: Body;
  /** True when this is a stored first answer given again. */
  replayed: boolean;
}

interface IdempotentCall<Body> {
  userId: number;
  /** From idempotencyKeyOf; without one the request simply runs. */
  key: string | undefined;
  /** The route, so one key cannot be replayed on another route. */
  scope: string;
  /** The validated body: the same key must come with the same data. */
  body: unknown;
  now?: () => number;
  /** For a replay: whether what the first answer made still exists (its links not deleted since). */
  stillExists?: (body: Body) => Promise<boolean>;
}

const lastSweep = new WeakMap<Database, number>();

/** Forgets keys older than IDEMPOTENCY_KEY_TTL_MS; at most once a minute per database handle. */
export async function sweepExpiredKeys(db: Database, now = Date.now(), force = false): Promise<number> {
  if (!force && now - (lastSweep.get(db) ?? 0) < SWEEP_EVERY_MS) return 0;
  lastSweep.set(db, now);
  return deleteKeysBefore(db, now - IDEMPOTENCY_KEY_TTL_MS);
}

const hashOf = (scope: string, body: unknown) =>
  createHash('sha256').update(`${scope}\n${JSON.stringify(body ?? null)}`).digest('hex');

function replay<Body, Status extends number>(row: IdempotencyKeyRow, requestHash: string, now: number): Answer<Body, Status> | 'free' {
  const { status_code: statusCode, response_body: body } = row;
  const running = statusCode === null || body === null;
  if (now - row.created_at >= (running ? ABANDONED_CLAIM_MS : IDEMPOTENCY_KEY_TTL_MS)) return 'free';
  if (row.request_hash !== requestHash) throw new AppError('idempotency_key_reused', errorMessages.idempotencyKeyReused);
  if (running) throw new AppError('idempotency_in_progress', errorMessages.idempotencyInProgress);
  // Stored by this same route, from its own answer: the status is one it gives.
  return { statusCode: statusCode as Status, body: JSON.parse(body) as Body, replayed: true };
}

/** Runs `run` once per key: the first success is stored and given to every retry for 24 h. */
export async function withIdempotency<Body, Status extends number>(
  db: Database,
  { userId, key, scope, body, now = Date.now, stillExists }: IdempotentCall<Body>,
  run: () => Promise<{ statusCode: Status; body: Body }>,
): Promise<Answer<Body, Status>> {
  if (key === undefined) return { ...(await run()), replayed: false };
  const requestHash = hashOf(scope, body);
  await sweepExpiredKeys(db, now());

  // Two rounds at most: a stale claim found in the first is dropped and claimed afresh.
  for (let round = 0; round < 2; round += 1) {
    const claim = { user_id: userId, key, request_hash: requestHash, created_at: now() };
    if (await claimKey(db, claim)) {
      let answer: { statusCode: Status; body: Body };
      try {
        answer = await run();
      } catch (error) {
        await dropClaim(db, claim);
        throw error;
      }
      await saveAnswer(db, userId, key, answer.statusCode, JSON.stringify(answer.body));
      return { ...answer, replayed: false };
    }
    const existing = await findKey(db, userId, key);
    if (!existing) continue; // dropped between our insert and our read: claim it again
    const found = replay<Body, Status>(existing, requestHash, now());
    if (found !== 'free') {
      // The key stays: every later retry with it hears the same.
      if (stillExists && !(await stillExists(found.body))) throw new AppError('idempotency_link_deleted', errorMessages.idempotencyLinkDeleted);
      return found;
    }
    await dropClaim(db, existing);
  }
  throw new AppError('idempotency_in_progress', errorMessages.idempotencyInProgress);
}
