import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context';
import { createMemoryAttemptStore } from '../auth/attempt-store';
import { createRedisAttemptStore } from '../auth/redis-attempt-store';
import { createMailer } from '../mail/mailer';
import { accountRoutes } from './account.routes';
import { emailVerificationRoutes } from './email-verification.routes';
import { createSecretGuard } from './password-check';
import { passwordResetRoutes } from './password-reset.routes';
import { sessionsRoutes } from './sessions.routes';
import { totpRoutes } from './totp.routes';
import { named } from '../http/plugin-name';

/** Everything of server/account/: the account page's routes, password recovery, e-mail verification, two-factor. */
export async function accountPlugin(app: FastifyInstance, context: AppContext) {
  const { config } = context;
  // Wrong passwords and codes counted where the logins' are: in Redis when REDIS_URL is set.
  const shared = config.redisUrl ? createRedisAttemptStore(config.redisUrl, app.log) : undefined;
  if (shared) app.addHook('onClose', async () => shared.close());
  const guard = createSecretGuard(context.database.db, config, shared ?? createMemoryAttemptStore());
  const mailer = createMailer(context.config);
  if (mailer) app.addHook('onClose', async () => mailer.close());
  await app.register(named('accountRoutes', (scope) => accountRoutes(scope, context, guard, mailer)));
  await app.register(named('sessionsRoutes', (scope) => sessionsRoutes(scope, context)));
  await app.register(named('totpRoutes', (scope) => totpRoutes(scope, context, guard)));
  await app.register(named('passwordResetRoutes', (scope) => passwordResetRoutes(scope, context, mailer)));
  await app.register(named('emailVerificationRoutes', (scope) => emailVerificationRoutes(scope, context, mailer)));
}
