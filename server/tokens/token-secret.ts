import { createHash, randomBytes } from 'node:crypto';
import { TOKEN_PREFIX_LENGTH } from '@common/tokens/token-messages';

// A secret is 'corto_' and 32 random bytes in base64url: recognisable in a leaked file (secret
// scanners can match the prefix), and far too random to guess, so a fast hash protects it at
// rest as well as a slow one would (argon2 is for passwords people choose).
const SECRET_START = 'corto_';
const SECRET_PATTERN = /^corto_[A-Za-z0-9_-]{43}$/;

export function newTokenSecret(): { secret: string; prefix: string; hash: string } {
  const secret = SECRET_START + randomBytes(32).toString('base64url');
  return { secret, prefix: secret.slice(0, TOKEN_PREFIX_LENGTH), hash: hashTokenSecret(secret) };
}

/** SHA-256 (hex) of a secret: what is stored and looked up. */
export function hashTokenSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Whether a string could be one of our secrets at all (no database work for anything else). */
export function looksLikeTokenSecret(value: string): boolean {
  return SECRET_PATTERN.test(value);
}
