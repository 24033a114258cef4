import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context';
import { createSecretGuard } from '../account/password-check';
import { createMemoryAttemptStore } from '../auth/attempt-store';
import { createRedisAttemptStore } from '../auth/redis-attempt-store';
import { createMailer } from '../mail/mailer';
import { activityRoutes } from './activity.routes';
import { invitesRoutes } from './invites.routes';
import { membersRoutes } from './members.routes';
import { workspacesRoutes } from './workspaces.routes';
import { named } from '../http/plugin-name';

/** Everything of server/workspaces/ that has a route: workspaces, members, invitations, activity. */
export async function workspacesPlugin(app: FastifyInstance, context: AppContext) {
  const { config } = context;
  // The password that deletes a workspace is guessed no faster than the account page's (counted in
  // Redis when REDIS_URL is set, so N instances do not give N times the guesses).
  const shared = config.redisUrl ? createRedisAttemptStore(config.redisUrl, app.log) : undefined;
  if (shared) app.addHook('onClose', async () => shared.close());
  const guard = createSecretGuard(context.database.db, config, shared ?? createMemoryAttemptStore());
  const mailer = createMailer(config);
  if (mailer) app.addHook('onClose', async () => mailer.close());
  await app.register(named('workspacesRoutes', (scope) => workspacesRoutes(scope, context, guard)));
  await app.register(named('membersRoutes', (scope) => membersRoutes(scope, context)));
  await app.register(named('invitesRoutes', (scope) => invitesRoutes(scope, context, mailer)));
  await app.register(named('activityRoutes', (scope) => activityRoutes(scope, context)));
}
