import type { Kysely } from 'kysely';
import { dialectOf, idType } from '../dialect';

// The addresses of deleted links, held for a while (ADDRESS_HOLD_DAYS) so nobody else can take them
// the same minute and catch the visits of codes already printed. code_key is addressKey(address),
// the form urls.custom_url_key and former_aliases.alias_key hold. user_id is the link's owner, who
// may take the address back; null (an account deleted) holds it for everyone.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations predate the typed schema
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('held_codes')
    .addColumn('code_key', 'text', (c) => c.primaryKey())
    .addColumn('user_id', idType(dialectOf(db)), (c) => c.references('users.id').onDelete('set null'))
    .addColumn('held_until', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('held_codes_held_until_idx').on('held_codes').column('held_until').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('held_codes').execute();
}

// A table of its own: the release before it runs on this schema unchanged (it holds no address).
export const compatibleWithPrevious = true;
