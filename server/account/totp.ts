import { createHash, randomBytes, randomInt } from 'node:crypto';
import { RECOVERY_CODE_COUNT, TOTP_CODE_DIGITS } from '@common/account/account-messages';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import type { Database } from '../db/database';

// Two-factor sign-in with time-based codes (RFC 6238: SHA-1, 6 digits, 30 s, as every
// authenticator app reads them), by otpauth. A code is accepted one step early or late (clock
// drift) and never twice; ten single-use recovery codes stand in for a lost phone.

const PERIOD_S = 30;
const ISSUER = 'Corto';
// Recovery codes: 10 characters of Crockford-like base32 (50 bits), shown as XXXXX-XXXXX.
const RECOVERY_ALPHABET = 'ABCDEFGHJKMNPQRSTVWXYZ0123456789';

function totpOf(secret: string, email: string): TOTP {
  return new TOTP({ issuer: ISSUER, label: email, secret: Secret.fromBase32(secret), digits: TOTP_CODE_DIGITS, period: PERIOD_S });
}

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** What the account page shows to set up an app: the secret, its otpauth:// URL and a QR of it (PNG data URL). */
export async function totpSetup(secret: string, email: string) {
  const otpauthUrl = totpOf(secret, email).toString();
  return { secret, otpauthUrl, qr: await QRCode.toDataURL(otpauthUrl, { margin: 2, width: 240, errorCorrectionLevel: 'M' }) };
}

/** The time step a 6-digit code belongs to (now, or one step either side), or undefined when wrong. */
export function codeStep(secret: string, code: string, now = Date.now()): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const delta = totpOf(secret, '').validate({ token: code, timestamp: now, window: 1 });
  return delta === null ? undefined : Math.floor(now / 1000 / PERIOD_S) + delta;
}

const hashCode = (code: string) => createHash('sha256').update(code.replace(/-/g, '').toUpperCase()).digest('hex');

function recoveryCode(): string {
  let code = '';
  for (let i = 0; i < 10; i++) code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** Ten new recovery codes for the user (the old ones stop working); only their hashes are kept. */
export async function replaceRecoveryCodes(db: Database, userId: number): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, recoveryCode);
  await db.deleteFrom('totp_recovery_codes').where('user_id', '=', userId).execute();
  await db
    .insertInto('totp_recovery_codes')
    .values(codes.map((code) => ({ user_id: userId, code_hash: hashCode(code), used_at: null })))
    .execute();
  return codes;
}

/**
 * What a second factor turned out to be: good (and now spent), a right code already spent (an app
 * code of a step used before, a recovery code used before), or wrong.
 */
export type SecondFactorResult = 'ok' | 'spent-code' | 'used-recovery-code' | 'wrong';

/**
 * A code of the user's app or one of their recovery codes, each good once. The step (or the
 * recovery code) is taken by a conditional update, so two requests racing with one code cannot
 * both pass. A spent code is told apart from a wrong one, so the user knows to use another.
 */
export async function checkSecondFactor(db: Database, userId: number, code: string, now = Date.now()): Promise<SecondFactorResult> {
  const user = await db.selectFrom('users').select(['totp_secret', 'totp_last_step']).where('id', '=', userId).executeTakeFirst();
  if (!user?.totp_secret) return 'wrong';
  const step = codeStep(user.totp_secret, code, now);
  if (step !== undefined) {
    const taken = await db
      .updateTable('users')
      .set({ totp_last_step: step })
      .where('id', '=', userId)
      .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
      .executeTakeFirst();
    return Number(taken.numUpdatedRows) > 0 ? 'ok' : 'spent-code';
  }
  const used = await db
    .updateTable('totp_recovery_codes')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('code_hash', '=', hashCode(code))
    .where('used_at', 'is', null)
    .executeTakeFirst();
  if (Number(used.numUpdatedRows) > 0) return 'ok';
  const spent = await db
    .selectFrom('totp_recovery_codes')
    .select('user_id')
    .where('user_id', '=', userId)
    .where('code_hash', '=', hashCode(code))
    .executeTakeFirst();
  return spent ? 'used-recovery-code' : 'wrong';
}

// The second step of a sign-in: a right password on an account with two-factor leaves a
// challenge (a random token in an httpOnly cookie, its hash stored) that a code then completes.

export const CHALLENGE_COOKIE = 'corto_totp';
export const CHALLENGE_LIFETIME_MS = 5 * 60 * 1000;

export async function createChallenge(db: Database, userId: number, now = Date.now()): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.deleteFrom('totp_challenges').where('expires_at', '<', now).execute();
  await db
    .insertInto('totp_challenges')
    .values({ token_hash: createHash('sha256').update(token).digest('hex'), user_id: userId, expires_at: now + CHALLENGE_LIFETIME_MS })
    .execute();
  return token;
}

export async function findChallenge(db: Database, token: string, now = Date.now()) {
  return db
    .selectFrom('totp_challenges')
    .innerJoin('users', 'users.id', 'totp_challenges.user_id')
    .select(['totp_challenges.token_hash', 'users.id as userId', 'users.email'])
    .where('totp_challenges.token_hash', '=', createHash('sha256').update(token).digest('hex'))
    .where('totp_challenges.expires_at', '>', now)
    .executeTakeFirst();
}
