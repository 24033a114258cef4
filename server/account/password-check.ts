import { accountMessages as a } from '@common/account/account-messages';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import type { Database } from '../db/database';
import type { UserRow } from '../db/schema';
import { type AttemptStore, namespacedStore } from '../auth/attempt-store';
import { createLoginGuard, type LoginGuard } from '../auth/login-guard';
import { verifyPassword } from '../auth/passwords';
import { AppError } from '../http/app-error';

/**
 * Passwords and codes typed on the account page and at the second step of a sign-in, slowed down
 * like logins (login-guard.ts: per account and client, then per account from unknown clients).
 * Each kind of guess counts apart from the logins, so a guesser cannot trade one for another's
 * budget, and a real owner who mistypes a code is not locked out of signing in. Counted in the
 * store given: Redis when REDIS_URL is set, so N instances do not give N times the guesses.
 */
export interface SecretGuard {
  /** The user's row when password is theirs; a field error (400) under `field` otherwise, or 429. */
  password(request: FastifyRequest, reply: FastifyReply, userId: number, email: string, password: string, field: string): Promise<UserRow>;
  /** Runs check as one guess of a code on the account; false is a wrong code. */
  code(request: FastifyRequest, reply: FastifyReply, email: string, check: () => Promise<boolean>): Promise<boolean>;
}

export function createSecretGuard(db: Database, config: Config, store: AttemptStore): SecretGuard {
  const passwords: LoginGuard = createLoginGuard(config, namespacedStore(store, 'account-password'));
  const codes: LoginGuard = createLoginGuard(config, namespacedStore(store, 'totp-code'));
  return {
    async password(request, reply, userId, email, password, field) {
      const row = await passwords.attempt(request, reply, email, async () => {
        const found = await db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
        return (await verifyPassword(found?.password_hash, password)) ? found : undefined;
      });
      if (!row) throw new AppError('validation', a.wrongPassword, { [field]: [a.wrongPassword] });
      return row;
    },
    async code(request, reply, email, check) {
      return (await codes.attempt(request, reply, email, async () => ((await check()) ? true : undefined))) === true;
    },
  };
}
