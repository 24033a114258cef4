import { adminMessages as m } from '@common/admin/admin-messages';
import { sql } from 'kysely';
import type { Database } from '../db/database';
import { dialectOf } from '../db/dialect';
import { AppError } from '../http/app-error';

// "At least one active admin", held under concurrency. Every change that can take an account out
// of the active admins (demotion, disabling, deletion by an operator or by its owner) runs in one
// transaction that first takes the admins' lock, then counts, then writes: two admins demoting
// each other at the same moment are serialized, and the second sees the first's change.
// PostgreSQL: a transaction-scoped advisory lock (any instance, released at commit or rollback).
// SQLite: Kysely runs a transaction on the one writing connection, so nothing else interleaves.

/** The advisory lock's key: any constant no other part of Corto uses ('corto:admins'). */
const ADMINS_LOCK = 0x636f72746f61646dn;

/** Waits for the admins' lock; call it first in the transaction that changes an admin. */
export async function lockAdmins(trx: Database): Promise<void> {
  if (dialectOf(trx) === 'postgres') await sql`select pg_advisory_xact_lock(${ADMINS_LOCK.toString()}::bigint)`.execute(trx);
}

/**
 * Refuses (409) when the account is an active admin and the only one: taking it out would leave
 * none. Call it inside the transaction, before the write; it takes the admins' lock when the
 * account is an admin (so deleting an ordinary account waits for nothing).
 */
export async function keepAnAdmin(trx: Database, userId: number, message: string = m.lastAdmin): Promise<void> {
  if (!(await isActiveAdmin(trx, userId))) return;
  await lockAdmins(trx);
  // Read again under the lock: another transaction may have changed it while we waited.
  if (!(await isActiveAdmin(trx, userId))) return;
  const row = await trx
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('role', '=', 'admin')
    .where('disabled_at', 'is', null)
    .executeTakeFirstOrThrow();
  if (Number(row.n) <= 1) throw new AppError('conflict', message);
}

async function isActiveAdmin(trx: Database, userId: number): Promise<boolean> {
  const row = await trx.selectFrom('users').select(['role', 'disabled_at']).where('id', '=', userId).executeTakeFirst();
  return row?.role === 'admin' && row.disabled_at === null;
}
