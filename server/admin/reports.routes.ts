import { adminMessages as m } from '@common/admin/admin-messages';
import { adminListQuerySchema, adminReportsResponseSchema, reportCreateSchema, signupStatusQuerySchema, signupStatusSchema } from '@common/admin/admin-schemas';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { z } from 'zod';
import type { AppContext } from '../app-context';
import { AppError } from '../http/app-error';
import { clientKey } from '../http/client-key';
import { findLinkByCode } from '../redirect/link-lookup';
import { addressKey } from '@common/links/short-address';
import { adminLinkOf } from './admin-links.routes';
import { adminLinksQuery, numbers } from './admin-links.queries';
import { ADMIN_PAGE_SIZE } from './admin-users.queries';
import { requireAdmin } from './require-admin';
import { describeInvite, signupMode } from './signup-policy';

const HOUR_S = 60 * 60;

/** The short address's code, from a full address on this instance or the code itself. */
function codeOf(address: string): string {
  const trimmed = address.trim().replace(/[?#].*$/, '').replace(/\/+$/, '');
  const last = trimmed.slice(trimmed.lastIndexOf('/') + 1);
  try {
    return addressKey(decodeURIComponent(last));
  } catch {
    return addressKey(last);
  }
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

  const redis = config.redisUrl ? new Redis(config.redisUrl, { enableOfflineQueue: false, lazyConnect: false }) : undefined;
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
      const link = await findLinkByCode(db, codeOf(address));
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

  routes.get(
    '/api/admin/reports',
    { preHandler: requireAdmin, schema: { querystring: adminListQuerySchema, response: { 200: adminReportsResponseSchema } } },
    async (request) => {
      let query = db.selectFrom('reports').selectAll().orderBy('id', 'desc').limit(ADMIN_PAGE_SIZE + 1);
      if (request.query.cursor) query = query.where('id', '<', request.query.cursor);
      const rows = await query.execute();
      const page = rows.slice(0, ADMIN_PAGE_SIZE);
      const ids = [...new Set(page.flatMap((row) => (row.url_id === null ? [] : [Number(row.url_id)])))];
      const links = ids.length ? (await adminLinksQuery(db).where('urls.id', 'in', ids).execute()).map(numbers) : [];
      const byId = new Map(links.map((link) => [link.id, adminLinkOf(link, config.publicBaseUrl)]));
      return {
        reports: page.map((row) => ({
          id: Number(row.id),
          address: row.reported_link,
          reason: row.reason,
          email: row.email,
          createdAt: new Date(Number(row.created_at)).toISOString(),
          link: row.url_id === null ? null : (byId.get(Number(row.url_id)) ?? null),
        })),
        nextCursor: rows.length > ADMIN_PAGE_SIZE ? Number(page.at(-1)!.id) : null,
      };
    },
  );
}
