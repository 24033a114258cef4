import { adminMessages as m } from '@common/admin/admin-messages';
import {
  adminReportPatchSchema,
  adminReportResponseSchema,
  adminReportsCountSchema,
  adminReportsQuerySchema,
  adminReportsResponseSchema,
  type ReportState,
  reportCreateSchema,
  signupStatusQuerySchema,
  signupStatusSchema,
} from '@common/admin/admin-schemas';
import type { FastifyInstance } from 'fastify';
import type { Selectable } from 'kysely';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { newRedis } from '../redis/redis-client';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { z } from 'zod';
import type { AppContext } from '../app-context';
import { signedInUser } from '../auth/require-user';
import type { Database } from '../db/database';
import type { ReportsTable } from '../db/schema';
import { AppError } from '../http/app-error';
import { clientKey } from '../http/client-key';
import { findLinkByCode } from '../redirect/link-lookup';
import { domainAddressKey } from '../domains/domain-keys';
import type { HostedDomains } from '../domains/hosted-domains';
import { adminLinkOf } from './admin-links.routes';
import { adminLinksQuery, numbers } from './admin-links.queries';
import { ADMIN_PAGE_SIZE } from './admin-users.queries';
import { recordAudit } from './audit-log';
import { requireAdmin } from './require-admin';
import { describeInvite, signupMode } from './signup-policy';

const HOUR_S = 60 * 60;

/**
 * The lookup key of a reported address: a full address on this instance or on a workspace's
 * verified domain (its key then carries the domain), or the code itself.
 */
function lookupKeyOf(address: string, hostedDomains: HostedDomains): string {
  const trimmed = address.trim().replace(/[?#].*$/, '').replace(/\/+$/, '');
  const last = trimmed.slice(trimmed.lastIndexOf('/') + 1);
  let code: string;
  try {
    code = decodeURIComponent(last);
  } catch {
    code = last;
  }
  const host = /^(?:https?:\/\/)?([^/]+)\//i.exec(trimmed)?.[1];
  const site = host === undefined ? 'instance' : hostedDomains.siteOf(host);
  return domainAddressKey(typeof site === 'object' && site.verified ? site.id : null, code);
}

/**
 * POST /api/reports: anyone may report a short address (no account), a few times an hour per
 * client (REPORTS_PER_HOUR, shared through Redis when set). GET /api/admin/reports for admins.
 * GET /api/signup tells the register tab whether sign-up is open, by invitation or closed.
 */
export async function reportsRoutes(app: FastifyInstance, context: AppContext) {
  const { config } = context;
  const { db } = context.database;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  const redis = config.redisUrl ? newRedis(config.redisUrl, { enableOfflineQueue: false, lazyConnect: false }) : undefined;
  redis?.on('error', () => {}); // the limiter falls back to memory meanwhile (insuranceLimiter)
  const options = { points: config.reportsPerHour, duration: HOUR_S, keyPrefix: 'corto:reports' };
  const limiter = redis
    ? new RateLimiterRedis({ ...options, storeClient: redis, insuranceLimiter: new RateLimiterMemory(options) })
    : new RateLimiterMemory(options);
  app.addHook('onClose', async () => {
    redis?.disconnect();
  });

  routes.post(
    '/api/reports',
    {
      // The reason is a description: it may span lines (other controls are refused before the schema).
      config: { multilineFields: ['reason'] },
      schema: { body: reportCreateSchema, response: { 202: z.object({ received: z.literal(true) }) } },
    },
    async (request, reply) => {
      if (config.reportsPerHour > 0) {
        try {
          await limiter.consume(clientKey(request.ip));
        } catch (refusal) {
          if (!(refusal instanceof RateLimiterRes)) throw refusal;
          throw new AppError('rate_limited', m.reportsRateLimited, undefined, Math.max(1, Math.ceil(refusal.msBeforeNext / 1000)));
        }
      }
      const { address, reason, email } = request.body;
      // The same answer and the same work (a lookup, an insert) whether the address is a link here
      // or not: a report must not tell a stranger which short addresses exist. One that leads
      // nowhere is kept without a link (the admin sees the address as written).
      const link = await findLinkByCode(db, lookupKeyOf(address, context.hostedDomains));
      await db
        .insertInto('reports')
        .values({ reported_link: address.trim(), url_id: link?.id ?? null, reason, email: email || null, created_at: Date.now(), resolved_at: null })
        .execute();
      return reply.status(202).send({ received: true });
    },
  );

  routes.get('/api/signup', { schema: { querystring: signupStatusQuerySchema, response: { 200: signupStatusSchema } } }, async (request) => {
    const signup = await signupMode(db, config);
    const code = request.query.invite;
    return code ? { signup, invite: await describeInvite(db, code) } : { signup };
  });

  const openCount = async (database: Database) =>
    Number((await database.selectFrom('reports').select((eb) => eb.fn.countAll<number>().as('n')).where('state', '=', 'open').executeTakeFirstOrThrow()).n);

  /** The API's report: its link (if it still exists) with owner and state, and how it was handled. */
  const reportsOf = async (rows: Selectable<ReportsTable>[]) => {
    const ids = [...new Set(rows.flatMap((row) => (row.url_id === null ? [] : [Number(row.url_id)])))];
    const links = ids.length ? (await adminLinksQuery(db).where('urls.id', 'in', ids).execute()).map(numbers) : [];
    const byId = new Map(links.map((link) => [link.id, adminLinkOf(link, config.publicBaseUrl)]));
    return rows.map((row) => ({
      id: Number(row.id),
      address: row.reported_link,
      reason: row.reason,
      email: row.email,
      createdAt: new Date(Number(row.created_at)).toISOString(),
      link: row.url_id === null ? null : (byId.get(Number(row.url_id)) ?? null),
      state: row.state,
      handledAt: row.resolved_at === null ? null : new Date(Number(row.resolved_at)).toISOString(),
      handledBy: row.handled_by,
    }));
  };

  routes.get(
    '/api/admin/reports',
    { preHandler: requireAdmin, schema: { querystring: adminReportsQuerySchema, response: { 200: adminReportsResponseSchema } } },
    async (request) => {
      const { cursor, state } = request.query;
      let query = db.selectFrom('reports').selectAll().orderBy('id', 'desc').limit(ADMIN_PAGE_SIZE + 1);
      query = state === 'open' ? query.where('state', '=', 'open') : query.where('state', '<>', 'open');
      if (cursor) query = query.where('id', '<', cursor);
      const rows = await query.execute();
      const page = rows.slice(0, ADMIN_PAGE_SIZE);
      return {
        reports: await reportsOf(page),
        nextCursor: rows.length > ADMIN_PAGE_SIZE ? Number(page.at(-1)!.id) : null,
        openCount: await openCount(db),
      };
    },
  );

  // The count beside 'Denuncias' in the admin's navigation.
  routes.get(
    '/api/admin/reports/count',
    { preHandler: requireAdmin, schema: { response: { 200: adminReportsCountSchema } } },
    async () => ({ open: await openCount(db) }),
  );

  const auditActions: Record<ReportState, 'report.resolve' | 'report.dismiss' | 'report.reopen'> = {
    resolved: 'report.resolve',
    dismissed: 'report.dismiss',
    open: 'report.reopen',
  };

  // 'Resuelta', 'Descartada', or back to open ('Reabrir'); each in the audit log.
  routes.patch(
    '/api/admin/reports/:id',
    {
      preHandler: requireAdmin,
      schema: { params: z.object({ id: z.coerce.number().int().positive() }), body: adminReportPatchSchema, response: { 200: adminReportResponseSchema } },
    },
    async (request) => {
      const me = signedInUser(request);
      const { state } = request.body;
      const row = await db.selectFrom('reports').selectAll().where('id', '=', request.params.id).executeTakeFirst();
      if (!row) throw new AppError('not_found', m.reportNotFound);
      if (row.state !== state) {
        const handled = state === 'open' ? { resolved_at: null, handled_by: null } : { resolved_at: Date.now(), handled_by: me.email };
        await db.updateTable('reports').set({ state, ...handled }).where('id', '=', row.id).execute();
        await recordAudit(db, me, auditActions[state], `denuncia ${row.id} (${row.reported_link})`);
      }
      const updated = await db.selectFrom('reports').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
      return { report: (await reportsOf([updated]))[0]! };
    },
  );
}
