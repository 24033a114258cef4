import type { Kysely } from 'kysely';
import { dialectOf, idColumn, idType } from '../dialect';

// Sign-in with the company's provider (docs/accounts.md, "Sign-in with the company's provider").
//
// oidc_identities ties a provider's subject to an account: matched by (issuer, sub), never by
// e-mail after the first sign-in. granted_admin remembers that OIDC_ADMIN_GROUP made the account an
// admin, so leaving the group takes back only what the group gave.
//
// oidc_flows holds a sign-in on its way through the provider (state, nonce, PKCE verifier, where
// the user was going), keyed by the hash of the random value in the browser's short-lived cookie:
// taken once at the callback, so a replayed callback finds nothing; every instance sees it.
//
// oidc_sessions keeps the ID token of a session opened by the provider, for the RP-initiated
// logout's id_token_hint; gone with the session.
//
// An account made by the provider has no password: users.password_hash is '' (NOT NULL since
// 0001; SQLite cannot drop that without rebuilding the table every other one points at), which no
// password verifies (auth/passwords.ts), and profile_image '' is the initials avatar.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations predate the typed schema
export async function up(db: Kysely<any>): Promise<void> {
  const dialect = dialectOf(db);
  const id = idType(dialect);
  await db.schema
    .createTable('oidc_identities')
    .addColumn('id', id, idColumn(dialect))
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('sub', 'text', (c) => c.notNull())
    .addColumn('user_id', id, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('granted_admin', 'smallint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_sign_in_at', 'bigint')
    .execute();
  await db.schema.createIndex('oidc_identities_issuer_sub_key').on('oidc_identities').columns(['issuer', 'sub']).unique().execute();
  await db.schema.createIndex('oidc_identities_user_id_idx').on('oidc_identities').column('user_id').execute();
  await db.schema
    .createTable('oidc_flows')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('code_verifier', 'text', (c) => c.notNull())
    .addColumn('return_to', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('oidc_flows_created_at_idx').on('oidc_flows').column('created_at').execute();
  await db.schema
    .createTable('oidc_sessions')
    .addColumn('token_hash', 'text', (c) => c.primaryKey().references('sessions.token_hash').onDelete('cascade'))
    .addColumn('id_token', 'text', (c) => c.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('oidc_sessions').execute();
  await db.schema.dropTable('oidc_flows').execute();
  await db.schema.dropTable('oidc_identities').execute();
}

export const compatibleWithPrevious = true;
