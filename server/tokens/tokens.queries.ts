import { sessionUserOfRow } from '../auth/api-user';
import type { ApiToken } from '@common/tokens/token-schemas';
import type { Database } from '../db/database';
import type { ApiTokenRow } from '../db/schema';
import type { SessionUser } from '../auth/sessions';

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

export function tokenRowToApi(row: ApiTokenRow, createdBy?: { id: number; name: string }): ApiToken {
  return {
    id: Number(row.id),
    name: row.name,
    scope: row.scope,
    prefix: row.prefix,
    createdAt: new Date(Number(row.created_at)).toISOString(),
    expiresAt: iso(row.expires_at),
    lastUsedAt: iso(row.last_used_at),
    ...(createdBy ? { createdBy } : {}),
  };
}

export interface NewToken {
  /** Who makes it: the token acts as them, and stops when they leave its workspace. */
  userId: number;
  workspaceId: number;
  name: string;
  scope: 'read' | 'write';
  prefix: string;
  hash: string;
  expiresAt: number | null;
}

export async function insertToken(db: Database, token: NewToken, now = Date.now()): Promise<ApiTokenRow> {
  return db
    .insertInto('api_tokens')
    .values({
      user_id: token.userId,
      workspace_id: token.workspaceId,
      name: token.name,
      scope: token.scope,
      prefix: token.prefix,
      token_hash: token.hash,
      created_at: now,
      expires_at: token.expiresAt,
      last_used_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function countUserTokens(db: Database, userId: number): Promise<number> {
  const row = await db.selectFrom('api_tokens').select((eb) => eb.fn.countAll().as('n')).where('user_id', '=', userId).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** A workspace's tokens, newest first, each with its creator's name. */
export async function listWorkspaceTokens(db: Database, workspaceId: number): Promise<Array<ApiTokenRow & { creator_name: string }>> {
  return db
    .selectFrom('api_tokens')
    .innerJoin('users', 'users.id', 'api_tokens.user_id')
    .selectAll('api_tokens')
    .select('users.name as creator_name')
    .where('api_tokens.workspace_id', '=', workspaceId)
    .orderBy('api_tokens.created_at', 'desc')
    .orderBy('api_tokens.id', 'desc')
    .execute();
}

/** Deletes one of the workspace's tokens; its hash (to forget it in every cache) or undefined. */
export async function deleteWorkspaceToken(db: Database, workspaceId: number, id: number): Promise<string | undefined> {
  const row = await db.deleteFrom('api_tokens').where('id', '=', id).where('workspace_id', '=', workspaceId).returning('token_hash').executeTakeFirst();
  return row?.token_hash;
}

/** Deletes every token of the user (a password reset or change, 'Revocar todos'): how many. Forget them in the cache after the commit. */
export async function deleteAllUserTokens(db: Database, userId: number): Promise<number> {
  const result = await db.deleteFrom('api_tokens').where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export interface TokenOwner {
  tokenId: number;
  scope: 'read' | 'write';
  /** The workspace it was made in, the only one it acts in. */
  workspaceId: number;
  /** Whether its creator is still a member there: a token of someone who left stops working. */
  member: boolean;
  expiresAt: number | null;
  lastUsedAt: number | null;
  user: SessionUser;
}

/** The token of a hash and its owner, expired or not (the caller decides); undefined when unknown. */
export async function findTokenByHash(db: Database, hash: string): Promise<TokenOwner | undefined> {
  const row = await db
    .selectFrom('api_tokens')
    .innerJoin('users', 'users.id', 'api_tokens.user_id')
    .leftJoin('workspace_members', (join) =>
      join.onRef('workspace_members.workspace_id', '=', 'api_tokens.workspace_id').onRef('workspace_members.user_id', '=', 'api_tokens.user_id'),
    )
    .select([
      'api_tokens.id as token_id',
      'api_tokens.scope',
      'api_tokens.workspace_id',
      'workspace_members.role as member_role',
      'api_tokens.expires_at',
      'api_tokens.last_used_at',
      'users.id',
      'users.email',
      'users.name',
      'users.profile_image',
      'users.created_at',
      'users.totp_secret',
      'users.role',
    ])
    // A disabled account's tokens are deleted with it; this keeps one made meanwhile from working.
    .where('users.disabled_at', 'is', null)
    .where('api_tokens.token_hash', '=', hash)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    tokenId: Number(row.token_id),
    scope: row.scope,
    workspaceId: Number(row.workspace_id),
    member: row.member_role !== null,
    expiresAt: row.expires_at === null ? null : Number(row.expires_at),
    lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
    user: sessionUserOfRow(row),
  };
}

export async function markTokenUsed(db: Database, tokenId: number, at: number): Promise<void> {
  await db.updateTable('api_tokens').set({ last_used_at: at }).where('id', '=', tokenId).execute();
}
