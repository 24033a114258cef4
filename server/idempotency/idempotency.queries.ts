import type { Database } from '../db/database';
import type { IdempotencyKeysTable } from '../db/schema';

// One query each; the wrapper in idempotency.ts decides what they mean together.

export type IdempotencyKeyRow = IdempotencyKeysTable;

/**
 * Claims a key for a request that is about to run. False when the user already holds it: the
 * primary key decides between two requests racing on any number of instances.
 */
export async function claimKey(
  db: Database,
  row: Pick<IdempotencyKeyRow, 'user_id' | 'key' | 'request_hash' | 'created_at'>,
): Promise<boolean> {
  const result = await db
    .insertInto('idempotency_keys')
    .values({ ...row, status_code: null, response_body: null })
    .onConflict((conflict) => conflict.columns(['user_id', 'key']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

export function findKey(db: Database, userId: number, key: string): Promise<IdempotencyKeyRow | undefined> {
  return db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('user_id', '=', userId)
    .where('key', '=', key)
    .executeTakeFirst();
}

/** Keeps the first answer, to be given again to every retry. */
export async function saveAnswer(db: Database, userId: number, key: string, statusCode: number, body: string): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ status_code: statusCode, response_body: body })
    .where('user_id', '=', userId)
    .where('key', '=', key)
    .execute();
}

/**
 * Removes one exact claim (its time too, so a claim someone else has since made is left alone):
 * after a failed request, or to take over an expired or abandoned key.
 */
export async function dropClaim(db: Database, row: Pick<IdempotencyKeyRow, 'user_id' | 'key' | 'created_at'>): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('user_id', '=', row.user_id)
    .where('key', '=', row.key)
    .where('created_at', '=', row.created_at)
    .execute();
}

/** Forgets every key claimed before the given time; returns how many went. */
export async function deleteKeysBefore(db: Database, before: number): Promise<number> {
  const result = await db.deleteFrom('idempotency_keys').where('created_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
