import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import type { Database } from '../db/database';
import type { UserRow } from '../db/schema';

export const SESSION_COOKIE = 'corto_session';
const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;
// Renew once less than this is left, so an active user is not logged out, without a write per request.
const RENEW_WHEN_LEFT_MS = SESSION_LIFETIME_MS - 24 * 60 * 60 * 1000;

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

export async function startSession(db: Database, config: Config, reply: FastifyReply, userId: number): Promise<void> {
  const token = randomBytes(32).toString('base64url');
  const now = Date.now();
  const expiresAt = now + SESSION_LIFETIME_MS;
  // Sweep expired sessions (anyone's: sessions_expires_at_idx makes it cheap) while we are here,
  // so the table stays small without a scheduled job.
  await db.deleteFrom('sessions').where('expires_at', '<', now).execute();
  await db
    .insertInto('sessions')
    .values({ token_hash: hashToken(token), user_id: userId, created_at: now, expires_at: expiresAt })
    .execute();
  setCookie(reply, config, token, expiresAt);
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
    .select(['users.id', 'users.email', 'users.name', 'users.profile_image', 'users.created_at', 'users.role', 'sessions.expires_at'])
    .where('sessions.token_hash', '=', tokenHash)
    // A disabled account's sessions are deleted when it is disabled; this holds even for a race.
    .where('users.disabled_at', 'is', null)
    .executeTakeFirst();
  if (!row || row.expires_at <= now) {
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return null;
  }
  if (row.expires_at - now < RENEW_WHEN_LEFT_MS) {
    const expiresAt = now + SESSION_LIFETIME_MS;
    await db.updateTable('sessions').set({ expires_at: expiresAt }).where('token_hash', '=', tokenHash).execute();
    setCookie(reply, config, token, expiresAt);
  }
  return { id: row.id, email: row.email, name: row.name, profileImageKey: row.profile_image, createdAt: row.created_at, role: row.role };
}

/** Ends the request's session on the server and in the browser. */
export async function endSession(db: Database, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const token = request.cookies[SESSION_COOKIE];
  if (token) await db.deleteFrom('sessions').where('token_hash', '=', hashToken(token)).execute();
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
}
