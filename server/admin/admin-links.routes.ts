import { adminMessages as m } from '@common/admin/admin-messages';
import {
  type AdminLink,
  adminLinkPatchSchema,
  adminLinkResponseSchema,
  adminLinksResponseSchema,
  adminListQuerySchema,
} from '@common/admin/admin-schemas';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../app-context';
import type { DatabaseReader } from '../db/database-reader';
import { signedInUser } from '../auth/require-user';
import { AppError } from '../http/app-error';
import { shortLinkOf } from '../links/link-mapper';
import { domainIdOf, forgetLinkAddresses, formerAliasKeysOf } from '../links/link-addresses';
import { recordAudit } from './audit-log';
import { type AdminLinkRow, findAdminLink, searchAllLinks } from './admin-links.queries';
import { ADMIN_PAGE_SIZE } from './admin-users.queries';

const idParams = z.object({ id: z.coerce.number().int().positive() });
const linksQuerySchema = adminListQuerySchema.extend({ owner: z.coerce.number().int().positive().optional() });

export function adminLinkOf(row: AdminLinkRow, publicBaseUrl: string): AdminLink {
  return {
    id: row.id,
    title: row.title,
    originalUrl: row.original_url,
    shortLink: shortLinkOf(publicBaseUrl, { shortCode: row.short_url, customUrl: row.custom_url, domain: row.domain }),
    createdAt: new Date(Number(row.created_at)).toISOString(),
    clicks: row.click_count,
    disabled: row.disabled_at !== null,
    disabledReason: row.disabled_reason,
    owner: { id: row.user_id, email: row.owner_email },
  };
}

/** /api/admin/links: every link, searched; disabled (410 for visitors) or enabled again. */
export async function adminLinksRoutes(app: FastifyInstance, context: AppContext, reader: DatabaseReader) {
  const { db } = context.database;
  const { publicBaseUrl } = context.config;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/api/admin/links',
    { schema: { querystring: linksQuerySchema, response: { 200: adminLinksResponseSchema } } },
    async (request) => {
      const { q, cursor, owner } = request.query;
      const rows = await searchAllLinks(reader, q, cursor, owner);
      const page = rows.slice(0, ADMIN_PAGE_SIZE);
      return {
        links: page.map((row) => adminLinkOf(row, publicBaseUrl)),
        nextCursor: rows.length > ADMIN_PAGE_SIZE ? page.at(-1)!.id : null,
      };
    },
  );

  routes.patch(
    '/api/admin/links/:id',
    { schema: { params: idParams, body: adminLinkPatchSchema, response: { 200: adminLinkResponseSchema } } },
    async (request) => {
      const me = signedInUser(request);
      const row = await findAdminLink(db, request.params.id);
      if (!row) throw new AppError('not_found', m.linkNotFound);
      const { disabled, reason } = request.body;
      await db
        .updateTable('urls')
        .set(disabled ? { disabled_at: Date.now(), disabled_reason: reason || null } : { disabled_at: null, disabled_reason: null })
        .where('id', '=', row.id)
        .execute();
      const former = (await formerAliasKeysOf(db, [row.id])).get(row.id) ?? [];
      // Every instance answers the next visit from the database again: 410, or the redirect.
      await forgetLinkAddresses(context.linkCache, { domainId: domainIdOf(row.domain_id), shortCode: row.short_url, customUrl: row.custom_url }, former);
      const address = shortLinkOf(publicBaseUrl, { shortCode: row.short_url, customUrl: row.custom_url, domain: row.domain });
      await recordAudit(db, me, disabled ? 'link.disable' : 'link.enable', address, disabled ? reason || null : null);
      return { link: adminLinkOf((await findAdminLink(db, row.id))!, publicBaseUrl) };
    },
  );
}
