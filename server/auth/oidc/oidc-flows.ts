import { randomBytes } from 'node:crypto';
import type { Database } from '../../db/database';
import type { OidcFlowsTable } from '../../db/schema';
import { hashToken } from '../sessions';

// A sign-in on its way through the provider. The browser holds only a random value in an HttpOnly
// cookie; state, nonce, PKCE verifier and where the user was going stay in the database (every
// instance sees them, nothing to sign or encrypt, and a secret never leaves the server). A flow is
// taken once: a replayed callback finds nothing.

export const FLOW_COOKIE = 'corto_oidc';
export const FLOW_COOKIE_PATH = '/api/auth/oidc';
export const FLOW_LIFETIME_MS = 10 * 60 * 1000;

export type Flow = Omit<OidcFlowsTable, 'id_hash' | 'created_at'>;

/** Stores the flow; returns the cookie's value. Flows older than their lifetime are swept meanwhile. */
export async function saveFlow(db: Database, flow: Flow): Promise<string> {
  const now = Date.now();
  const cookie = randomBytes(32).toString('base64url');
  await db.deleteFrom('oidc_flows').where('created_at', '<', now - FLOW_LIFETIME_MS).execute();
  await db.insertInto('oidc_flows').values({ ...flow, id_hash: hashToken(cookie), created_at: now }).execute();
  return cookie;
}

/** The flow of this cookie, removed as it is read; undefined when unknown, used or expired. */
export async function takeFlow(db: Database, cookie: string): Promise<Flow | undefined> {
  const row = await db.deleteFrom('oidc_flows').where('id_hash', '=', hashToken(cookie)).returningAll().executeTakeFirst();
  if (!row || row.created_at < Date.now() - FLOW_LIFETIME_MS) return undefined;
  return { state: row.state, nonce: row.nonce, code_verifier: row.code_verifier, return_to: row.return_to };
}

/** `next` when it is a path of this site; the dashboard otherwise ('//elsewhere' or '/\elsewhere' would leave it). */
export function sameOriginPath(next: unknown): string {
  if (typeof next !== 'string' || next.length > 2000) return '/dashboard';
  if (!next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\') || /[\p{Cc}\\]/u.test(next)) return '/dashboard';
  return next;
}
