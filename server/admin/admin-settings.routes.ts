import {
  auditResponseSchema,
  inviteCreateSchema,
  inviteResponseSchema,
  settingsResponseSchema,
  settingsSchema,
} from '@common/admin/admin-schemas';
import { adminMessages } from '@common/admin/admin-messages';
import { errorMessages } from '@common/messages';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../app-context';
import { signedInUser } from '../auth/require-user';
import { AppError } from '../http/app-error';
import { normalHost } from '../links/normal-host';
import { adminListQuerySchema } from '@common/admin/admin-schemas';
import { auditPage, recordAudit } from './audit-log';
import { ADMIN_PAGE_SIZE } from './admin-users.queries';
import { createInvite, signupMode, storedSignupMode, storeSignupMode } from './signup-policy';

/** /api/admin/settings (sign-up and blocked domains), /api/admin/invites, /api/admin/audit. */
export async function adminSettingsRoutes(app: FastifyInstance, context: AppContext) {
  const { config, blockedDomains, linkCache } = context;
  const { db } = context.database;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  const current = async () => ({
    signup: await signupMode(db, config),
    blockedDomains: blockedDomains.list(),
    signupFromEnvironment: config.signup ?? null,
  });

  routes.get('/api/admin/settings', { schema: { response: { 200: settingsResponseSchema } } }, current);

  routes.put(
    '/api/admin/settings',
    { schema: { body: settingsSchema, response: { 200: settingsResponseSchema } } },
    async (request) => {
      const me = signedInUser(request);
      const { signup, blockedDomains: wanted } = request.body;
      const before = await storedSignupMode(db);
      if (signup !== before) {
        await storeSignupMode(db, signup);
        await recordAudit(db, me, 'settings.signup', 'registro', signup);
      }
      // Each compared as every host is (normalHost): one the schema let through may still be none.
      if (wanted.some((domain) => normalHost(domain) === undefined)) {
        throw new AppError('validation', errorMessages.validation, { blockedDomains: [adminMessages.domainInvalid] });
      }
      const old = blockedDomains.list();
      await blockedDomains.replace(wanted);
      const now = blockedDomains.list();
      if (now.join('\n') !== old.join('\n')) {
        // Links into a newly blocked domain answer 410 on every instance from the next visit.
        await linkCache.forgetAll();
        const added = now.filter((domain) => !old.includes(domain));
        const removed = old.filter((domain) => !now.includes(domain));
        const detail = [...added.map((d) => `+${d}`), ...removed.map((d) => `-${d}`)].join(' ');
        await recordAudit(db, me, 'settings.blocked_domains', 'dominios bloqueados', detail);
      }
      return current();
    },
  );

  routes.post(
    '/api/admin/invites',
    { schema: { body: inviteCreateSchema.optional(), response: { 201: inviteResponseSchema } } },
    async (request, reply) => {
      const me = signedInUser(request);
      const email = request.body?.email?.toLowerCase();
      const { code, expiresAt } = await createInvite(db, me.id, email);
      await recordAudit(db, me, 'invite.create', email ?? 'cualquier email');
      const url = `${config.publicBaseUrl}/auth?tab=register&invite=${encodeURIComponent(code)}`;
      return reply
        .status(201)
        .send({ invite: { code, url, expiresAt: new Date(expiresAt).toISOString(), email: email ?? null } });
    },
  );

  routes.get(
    '/api/admin/audit',
    { schema: { querystring: adminListQuerySchema, response: { 200: auditResponseSchema } } },
    async (request) => {
      const rows = await auditPage(db, request.query.cursor, ADMIN_PAGE_SIZE);
      const page = rows.slice(0, ADMIN_PAGE_SIZE);
      return {
        entries: page.map((row) => ({
          id: Number(row.id),
          admin: row.admin_email,
          action: row.action,
          target: row.target,
          detail: row.detail,
          createdAt: new Date(Number(row.created_at)).toISOString(),
        })),
        nextCursor: rows.length > ADMIN_PAGE_SIZE ? Number(page.at(-1)!.id) : null,
      };
    },
  );
}
