import { addressKey } from '@common/links/short-address';
import type { Database } from '../db/database';

// A deleted link's addresses (its code, its alias, its former aliases) are held for
// ADDRESS_HOLD_DAYS: nobody else can take one the same minute and catch the visits of the QR codes
// and links already printed or shared. Its owner may take one back (a link deleted by mistake,
// made again); once the account is gone too, nobody may until the hold ends.

const DAY_MS = 24 * 60 * 60 * 1000;
/** Rows per insert: three parameters each, well within both databases' limits. */
const ROWS_PER_INSERT = 500;

/** When a hold made now ends. */
export const holdEnds = (holdDays: number, now = Date.now()) => now + holdDays * DAY_MS;

/**
 * Holds these addresses until `until`, for `owner` alone to take back (null:
 * for nobody). Each as its key on its domain (domainAddressKey: '{domain id}/' before a custom
 * domain's), or as typed on the instance's host. An address held already is held again, for the new
 * owner and time. Holds past their end are swept on the way.
 */
export async function holdAddresses(db: Database, addresses: string[], owner: number | null, until: number, now = Date.now()): Promise<void> {
  await db.deleteFrom('held_codes').where('held_until', '<=', now).execute();
  if (until <= now) return;
  const keys = [...new Set(addresses.map(addressKey))];
  for (let start = 0; start < keys.length; start += ROWS_PER_INSERT) {
    await db
      .insertInto('held_codes')
      .values(keys.slice(start, start + ROWS_PER_INSERT).map((key) => ({ code_key: key, user_id: owner, held_until: until })))
      .onConflict((conflict) => conflict.column('code_key').doUpdateSet((eb) => ({ user_id: eb.ref('excluded.user_id'), held_until: eb.ref('excluded.held_until') })))
      .execute();
  }
}

/** Holds of an account that is going: nobody may take its addresses back until they end. */
export async function orphanHoldsOf(db: Database, userId: number): Promise<void> {
  await db.updateTable('held_codes').set({ user_id: null }).where('user_id', '=', userId).execute();
}

/**
 * Which of these keys (domainAddressKey's form) are held against `claimant`: held for nobody or for
 * another user. Without a claimant (a short code being drawn) every hold counts.
 */
export async function heldAddresses(db: Database, keys: string[], claimant?: number, now = Date.now()): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  let query = db.selectFrom('held_codes').select('code_key').where('code_key', 'in', keys).where('held_until', '>', now);
  if (claimant !== undefined) query = query.where((eb) => eb.or([eb('user_id', 'is', null), eb('user_id', '<>', claimant)]));
  return new Set((await query.execute()).map((row) => row.code_key));
}
