import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context';
import { openDatabaseReader } from '../db/database-reader';
import { SEARCH_PAGE_CACHE_KIB } from '../db/sqlite-connection';
import { adminDomainsRoutes } from '../domains/admin-domains.routes';
import { adminLinksRoutes } from './admin-links.routes';
import { adminSettingsRoutes } from './admin-settings.routes';
import { adminUsersRoutes } from './admin-users.routes';
import { adminWorkspacesRoutes } from './admin-workspaces.routes';
import { reportsRoutes } from './reports.routes';
import { requireAdmin } from './require-admin';
import { named } from '../http/plugin-name';

/** The operator's API. Every /api/admin route answers 401 anonymous and 403 to non-admins. */
export async function adminRoutes(app: FastifyInstance, context: AppContext) {
  // The searches of every link and account are read off the event loop (SQLite: on a thread).
  const reader = openDatabaseReader(context.database, app.log, 'admin', { pageCacheKib: SEARCH_PAGE_CACHE_KIB });
  app.addHook('onClose', () => reader.close());
  await app.register(named('adminScope', async (admin) => {
    admin.addHook('preHandler', requireAdmin);
    await admin.register(named('adminUsersRoutes', (scope) => adminUsersRoutes(scope, context, reader)));
    await admin.register(named('adminLinksRoutes', (scope) => adminLinksRoutes(scope, context, reader)));
    await admin.register(named('adminWorkspacesRoutes', (scope) => adminWorkspacesRoutes(scope, context, reader)));
    await admin.register(named('adminDomainsRoutes', (scope) => adminDomainsRoutes(scope, context, reader)));
    await admin.register(named('adminSettingsRoutes', adminSettingsRoutes), context);
  }));
  // Public report form and sign-up status; the reports list checks the admin itself.
  await app.register(named('reportsRoutes', reportsRoutes), context);
}
