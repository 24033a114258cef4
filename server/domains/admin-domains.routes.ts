import { adminListQuerySchema } from '@common/admin/admin-schemas';
import { domainMessages as m } from '@common/domains/domain-messages';
import { type AdminDomain, adminDomainPatchSchema, adminDomainResponseSchema, adminDomainsResponseSchema } from '@common/domains/domain-schemas';
import { displayHostname } from '@common/domains/hostname';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../app-context';
import { recordAudit } from '../admin/audit-log';
import { ADMIN_PAGE_SIZE } from '../admin/admin-users.queries';
import { signedInUser } from '../auth/require-user';
import type { DatabaseReader } from '../db/database-reader';
import { AppError } from '../http/app-error';
import { type AdminDomainRow, findAdminDomain, searchAllDomains } from './admin-domains.queries';
import { domainsChanged } from './domains-changed';

const idParams = z.object({ id: z.coerce.number().int().positive() });

export const adminDomainOf = (row: AdminDomainRow): AdminDomain => ({
  id: row.id,
  hostname: row.hostname,
  displayHostname: displayHostname(row.hostname),
  workspace: { id: row.workspace_id, slug: row.workspace_slug, name: row.workspace_name },
  verified: row.verified_at !== null,
  disabled: row.disabled_at !== null,
  disabledAt: row.disabled_at === null ? null : new Date(Number(row.disabled_at)).toISOString(),
  links: row.links,
  createdAt: new Date(Number(row.created_at)).toISOString(),
});

/** The name as read, and its punycode when that differs: the form a look-alike cannot pass for. */
function auditTarget(hostname: string): string {
  const shown = displayHostname(hostname);
  return shown === hostname ? hostname : `${shown} (${hostname})`;
}

/**
 * /api/admin/domains (the operator's, behind requireAdmin): every workspace's domains, searched;
 * one disabled (its links answer 410 on every instance) or enabled again, as links are.
 */
export async function adminDomainsRoutes(app: FastifyInstance, context: AppContext, reader: DatabaseReader) {
  const { db } = context.database;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/api/admin/domains',
    { schema: { querystring: adminListQuerySchema, response: { 200: adminDomainsResponseSchema } } },
    async (request) => {
      const rows = await searchAllDomains(reader, request.query.q, request.query.cursor);
      const page = rows.slice(0, ADMIN_PAGE_SIZE);
      return { domains: page.map(adminDomainOf), nextCursor: rows.length > ADMIN_PAGE_SIZE ? page.at(-1)!.id : null };
    },
  );

  routes.patch(
    '/api/admin/domains/:id',
    { schema: { params: idParams, body: adminDomainPatchSchema, response: { 200: adminDomainResponseSchema } } },
    async (request) => {
      const me = signedInUser(request);
      const row = await findAdminDomain(db, request.params.id);
      if (!row) throw new AppError('not_found', m.notFound);
      const { disabled, reason } = request.body;
      // Disabling a disabled domain keeps the first date: the 410s started then.
      if (disabled !== (row.disabled_at !== null)) {
        await db.updateTable('domains').set({ disabled_at: disabled ? Date.now() : null }).where('id', '=', row.id).execute();
        await domainsChanged(context);
      }
      await recordAudit(db, me, disabled ? 'domain.disable' : 'domain.enable', auditTarget(row.hostname), disabled ? reason || null : null);
      return { domain: adminDomainOf((await findAdminDomain(db, row.id))!) };
    },
  );
}
