import { createHash, randomBytes } from 'node:crypto';
import { sessionUserOfRow } from './api-user';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import type { Database } from '../db/database';
import type { UserRow } from '../db/schema';

export const SESSION_COOKIE = 'corto_session';
const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;
// Renew once less than this is left, so an active user is not logged out, without a write per request.
const RENEW_WHEN_LEFT_MS = SESSION_LIFETIME_MS - 24 * 60 * 60 * 1000;
// 'Last seen' on the account page is written at most this often per session: one small UPDATE a
// minute for an active tab, none for the redirect path (which never reads sessions).
export const LAST_SEEN_EVERY_MS = 60 * 1000;
const USER_AGENT_MAX = 512;

/** The signed-in user as the server's routes see it (request.user). */
export interface SessionUser {
  id: UserRow['id'];
  email: UserRow['email'];
  name: UserRow['name'];
  /** Storage key of the picture in bucket 'profile-pictures' (not its address: storage.publicUrl gives that). */
  profileImageKey: UserRow['profile_image'];
  /** Epoch milliseconds. */
  createdAt: UserRow['created_at'];
  role: 'user' | 'admin';
  /** Two-factor sign-in is on. */
  totp: boolean;
  /** The public id of the session the request came with (absent outside a session). */
  sessionId?: string;
}

/** Only the hash is stored: a copy of the database does not yield live sessions. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function setCookie(reply: FastifyReply, config: Config, token: string, expiresAt: number): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: config.publicBaseUrl.startsWith('https:'),
    expires: new Date(expiresAt),
  });
}

/** Opens a session for `userId` with its cookie; returns the token's hash (its row's key). */
export async function startSession(
  db: Database,
  config: Config,
  request: FastifyRequest,
  reply: FastifyReply,
  userId: number,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = Date.now();
  const expiresAt = now + SESSION_LIFETIME_MS;
  // Sweep expired sessions (anyone's: sessions_expires_at_idx makes it cheap) while we are here,
  // so the table stays small without a scheduled job.
  await db.deleteFrom('sessions').where('expires_at', '<', now).execute();
  await db
    .insertInto('sessions')
    .values({
      token_hash: hashToken(token),
      public_id: randomBytes(12).toString('base64url'),
      user_id: userId,
      created_at: now,
      expires_at: expiresAt,
      last_seen_at: now,
      user_agent: request.headers['user-agent']?.slice(0, USER_AGENT_MAX) ?? null,
    })
    .execute();
  setCookie(reply, config, token, expiresAt);
  return hashToken(token);
}

/** The hash of the request's session token, if it carries one. */
export function requestTokenHash(request: FastifyRequest): string | undefined {
  const token = request.cookies[SESSION_COOKIE];
  return token ? hashToken(token) : undefined;
}

/** The user of the request's session cookie, renewing the session when due; null when none is valid. */
export async function sessionUser(
  db: Database,
  config: Config,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<SessionUser | null> {
  const token = request.cookies[SESSION_COOKIE];
  if (!token) return null;
  const now = Date.now();
  const tokenHash = hashToken(token);
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select([
      'users.id',
      'users.email',
      'users.name',
      'users.profile_image',
      'users.created_at',
      'users.totp_secret',
      'users.role',
      'sessions.expires_at',
      'sessions.public_id',
      'sessions.last_seen_at',
    ])
    .where('sessions.token_hash', '=', tokenHash)
    // A disabled account's sessions are deleted when it is disabled; this holds even for a race.
    .where('users.disabled_at', 'is', null)
    .executeTakeFirst();
  if (!row || row.expires_at <= now) {
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return null;
  }
  const renew = row.expires_at - now < RENEW_WHEN_LEFT_MS;
  const seen = row.last_seen_at === null || now - row.last_seen_at >= LAST_SEEN_EVERY_MS;
  if (renew || seen) {
    const expiresAt = renew ? now + SESSION_LIFETIME_MS : row.expires_at;
    await db.updateTable('sessions').set({ expires_at: expiresAt, last_seen_at: now }).where('token_hash', '=', tokenHash).execute();
    if (renew) setCookie(reply, config, token, expiresAt);
  }
  return { ...sessionUserOfRow(row), sessionId: row.public_id };
}

/**
 * Whether the session of a token hash still holds (not ended, not expired, its account enabled),
 * without renewing it: for a long answer (the live feed) that checks now and then after its headers went.
 */
export async function sessionStillValid(db: Database, tokenHash: string, now = Date.now()): Promise<boolean> {
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select('sessions.expires_at')
    .where('sessions.token_hash', '=', tokenHash)
    .where('users.disabled_at', 'is', null)
    .executeTakeFirst();
  return row !== undefined && Number(row.expires_at) > now;
}

/** Ends the request's session on the server and in the browser. */
export async function endSession(db: Database, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const token = request.cookies[SESSION_COOKIE];
  if (token) await db.deleteFrom('sessions').where('token_hash', '=', hashToken(token)).execute();
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
}
