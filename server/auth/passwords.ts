import { hash, verify } from '@node-rs/argon2';
import { errorMessages } from '@common/messages';
import pLimit from 'p-limit';
import { AppError } from '../http/app-error';

// Algorithm.Argon2id; the package's const enum cannot be imported under isolatedModules.
const ARGON2ID = 2;

// argon2 runs on libuv's thread pool (4 threads unless UV_THREADPOOL_SIZE says otherwise), the
// same threads that read files, encode QR codes and resize pictures. A burst of logins must not
// take all of them: at most two hashes run at once, a few dozen wait, and beyond that the
// request is refused at once rather than left to wait behind hundreds of others.
export const HASH_CONCURRENCY = 2;
export const HASH_QUEUE_LIMIT = 32;
// A full queue drains in a fraction of a second.
const BUSY_RETRY_AFTER_SECONDS = 1;

export interface HashGate {
  /** Runs task when a slot is free; refuses it with a 503 'busy' when too many are waiting already. */
  run<T>(task: () => Promise<T>): Promise<T>;
  /** Tasks running now. */
  readonly active: number;
  /** Tasks waiting for a slot. */
  readonly waiting: number;
}

export function createHashGate(concurrency: number, queueLimit: number): HashGate {
  const limit = pLimit(concurrency);
  return {
    run(task) {
      if (limit.activeCount + limit.pendingCount >= concurrency + queueLimit) {
        return Promise.reject(new AppError('busy', errorMessages.busy, undefined, BUSY_RETRY_AFTER_SECONDS));
      }
      return limit(task);
    },
    get active() {
      return limit.activeCount;
    },
    get waiting() {
      return limit.pendingCount;
    },
  };
}

// One gate for the process: the thread pool it protects is the process's.
const gate = createHashGate(HASH_CONCURRENCY, HASH_QUEUE_LIMIT);

export function hashPassword(password: string): Promise<string> {
  return gate.run(() => hash(password, { algorithm: ARGON2ID }));
}

/**
 * users.password_hash of an account made by the company's provider (migration 0025): no password
 * verifies it, and the account page offers to set one by a reset link.
 */
export const NO_PASSWORD = '';

export const hasPassword = (row: { password_hash: string }) => row.password_hash !== NO_PASSWORD;

// Verified against when the e-mail is unknown, so both failures take the same time.
let decoyHash: Promise<string> | undefined;

/** True when the password matches; with no stored hash, spends the same work and says false. */
export async function verifyPassword(storedHash: string | undefined, password: string): Promise<boolean> {
  if (storedHash === undefined || storedHash === NO_PASSWORD) {
    decoyHash ??= hashPassword('corto-decoy-password');
    // A decoy that failed (a full queue) is tried again next time rather than kept.
    const decoy = await decoyHash.catch((error: unknown) => {
      decoyHash = undefined;
      throw error;
    });
    await gate.run(() => verify(decoy, password));
    return false;
  }
  return gate.run(() => verify(storedHash, password));
}
