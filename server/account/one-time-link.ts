import { randomBytes } from 'node:crypto';
import type { Config } from '../config';
import { hashToken } from '../auth/sessions';

// The links Corto mails that act once (password reset, e-mail verification): a random token of
// 256 bits in the link's query, of which the database keeps only the SHA-256.

export interface OneTimeToken {
  /** What goes in the link, and nowhere else. */
  token: string;
  /** What is stored and looked up. */
  tokenHash: string;
}

export function newOneTimeToken(): OneTimeToken {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: hashToken(token) };
}

/** The public address of one of the web app's pages, with the token in its query. */
export function oneTimeLink(config: Pick<Config, 'publicBaseUrl'>, path: string, token: string): string {
  const url = new URL(path, `${config.publicBaseUrl}/`);
  url.searchParams.set('token', token);
  return url.toString();
}
