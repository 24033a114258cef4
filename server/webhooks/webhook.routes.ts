import { randomBytes } from 'node:crypto';
import { errorMessages } from '@common/messages';
import { webhookMessages as m } from '@common/webhooks/webhook-messages';
import {
  createdWebhookSchema,
  createWebhookSchema,
  deliveryListSchema,
  deliveryResponseSchema,
  updateWebhookSchema,
  webhookListSchema,
  webhookResponseSchema,
} from '@common/webhooks/webhook-schemas';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../app-context';
import { requireUser } from '../auth/require-user';
import { AppError } from '../http/app-error';
import { workspaceFor } from '../workspaces/workspace-access';
import { insertPing } from './outbox';
import {
  countWorkspaceLinks,
  findDelivery,
  findWebhook,
  findWebhookRow,
  listDeliveries,
  listWebhooks,
  setWebhookLinks,
} from './webhook.queries';

// A workspace's webhooks (docs/webhooks.md): all of it needs 'manage' (admins and owners). The
// secret is in the creation's answer only. The URL's syntax is the schema's to check; an address
// of a private network is refused here as written, and again where the delivery connects.

const idParams = z.object({ id: z.string().meta({ examples: ['4'] }) });
const deliveryParams = z.object({ id: z.string().meta({ examples: ['4'] }), deliveryId: z.string().meta({ examples: ['120'] }) });
const PING_LEASE_MS = 60_000;

function idOf(raw: string, message: string): number {
  const id = /^[1-9]\d{0,14}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id)) throw new AppError('not_found', message);
  return id;
}

const refused = (field: string, message: string) => new AppError('validation', errorMessages.validation, { [field]: [message] });

export async function webhooksRoutes(app: FastifyInstance, context: AppContext) {
  const { db } = context.database;
  const { config, webhooks } = context;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  async function ownWebhook(workspaceId: number, raw: string) {
    const row = await findWebhookRow(db, workspaceId, idOf(raw, m.notFound));
    if (!row) throw new AppError('not_found', m.notFound);
    return row;
  }

  function checkUrl(url: string) {
    if (!config.allowPrivateDestinations && webhooks.agentsRefuse(new URL(url).hostname)) throw refused('url', m.urlPrivate);
  }

  async function checkLinks(workspaceId: number, ids: number[] | undefined) {
    if (ids && ids.length > 0 && (await countWorkspaceLinks(db, workspaceId, ids)) !== ids.length) throw refused('links', m.linkNotInWorkspace);
  }

  routes.get('/api/webhooks', { schema: { response: { 200: webhookListSchema } }, preHandler: requireUser }, async (request) => {
    const workspace = await workspaceFor(request, db, 'manage');
    return { webhooks: await listWebhooks(db, workspace.id) };
  });

  routes.post(
    '/api/webhooks',
    { schema: { body: createWebhookSchema, response: { 201: createdWebhookSchema } }, preHandler: requireUser },
    async (request, reply) => {
      const workspace = await workspaceFor(request, db, 'manage');
      const { url, events, links = [] } = request.body;
      checkUrl(url);
      await checkLinks(workspace.id, links);
      const secret = `whsec_${randomBytes(32).toString('base64')}`;
      const id = await db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('webhooks')
          .values({ workspace_id: workspace.id, url, secret, events: JSON.stringify(events), filtered: 0, enabled: 1, disabled_reason: null, created_at: Date.now() })
          .returning('id')
          .executeTakeFirstOrThrow();
        await setWebhookLinks(trx, Number(row.id), links);
        return Number(row.id);
      });
      await webhooks.subscriptions.changed();
      reply.code(201);
      return { webhook: (await findWebhook(db, workspace.id, id))!, secret };
    },
  );

  routes.get('/api/webhooks/:id', { schema: { params: idParams, response: { 200: webhookResponseSchema } }, preHandler: requireUser }, async (request) => {
    const workspace = await workspaceFor(request, db, 'manage');
    const row = await ownWebhook(workspace.id, request.params.id);
    return { webhook: (await findWebhook(db, workspace.id, Number(row.id)))! };
  });

  routes.patch(
    '/api/webhooks/:id',
    { schema: { params: idParams, body: updateWebhookSchema, response: { 200: webhookResponseSchema } }, preHandler: requireUser },
    async (request) => {
      const workspace = await workspaceFor(request, db, 'manage');
      const row = await ownWebhook(workspace.id, request.params.id);
      const id = Number(row.id);
      const { url, events, links, enabled } = request.body;
      if (url !== undefined) checkUrl(url);
      await checkLinks(workspace.id, links);
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('webhooks')
          .set({
            ...(url !== undefined ? { url } : {}),
            ...(events !== undefined ? { events: JSON.stringify(events) } : {}),
            // Enabled again by hand: the count starts over; disabled by hand: no reason of Corto's.
            ...(enabled !== undefined ? { enabled: enabled ? 1 : 0, disabled_reason: null, failures_in_a_row: 0 } : {}),
          })
          .where('id', '=', id)
          .execute();
        if (links !== undefined) await setWebhookLinks(trx, id, links);
      });
      await webhooks.subscriptions.changed();
      // A new address, or enabled again: what waits is tried now, not after a failing receiver's pause.
      if (url !== undefined || enabled) webhooks.dispatcher.resume(id);
      return { webhook: (await findWebhook(db, workspace.id, id))! };
    },
  );

  routes.delete(
    '/api/webhooks/:id',
    { schema: { params: idParams, response: { 204: z.null().meta({ description: m.deleted }) } }, preHandler: requireUser },
    async (request, reply) => {
      const workspace = await workspaceFor(request, db, 'manage');
      const row = await ownWebhook(workspace.id, request.params.id);
      // Its filter and its deliveries go with it (cascade).
      await db.deleteFrom('webhooks').where('id', '=', row.id).execute();
      await webhooks.subscriptions.changed();
      return reply.code(204).send(null);
    },
  );

  routes.post(
    '/api/webhooks/:id/test',
    { schema: { params: idParams, response: { 200: deliveryResponseSchema } }, preHandler: requireUser },
    async (request) => {
      const workspace = await workspaceFor(request, db, 'manage');
      const row = await ownWebhook(workspace.id, request.params.id);
      const id = Number(row.id);
      const deliveryId = await insertPing(db, id, Date.now() + PING_LEASE_MS);
      await webhooks.dispatcher.sendClaimed({ id, url: row.url, secret: row.secret }, deliveryId);
      return { delivery: (await findDelivery(db, id, deliveryId))! };
    },
  );

  routes.get(
    '/api/webhooks/:id/deliveries',
    { schema: { params: idParams, response: { 200: deliveryListSchema } }, preHandler: requireUser },
    async (request) => {
      const workspace = await workspaceFor(request, db, 'manage');
      const row = await ownWebhook(workspace.id, request.params.id);
      return { deliveries: await listDeliveries(db, Number(row.id)) };
    },
  );

  routes.post(
    '/api/webhooks/:id/deliveries/:deliveryId/retry',
    { schema: { params: deliveryParams, response: { 200: deliveryResponseSchema } }, preHandler: requireUser },
    async (request) => {
      const workspace = await workspaceFor(request, db, 'manage');
      const row = await ownWebhook(workspace.id, request.params.id);
      const id = Number(row.id);
      const deliveryId = idOf(request.params.deliveryId, m.deliveryNotFound);
      if (!(await findDelivery(db, id, deliveryId))) throw new AppError('not_found', m.deliveryNotFound);
      const now = Date.now();
      // Due now; one being sent at this moment is left to its attempt.
      await db
        .updateTable('webhook_deliveries')
        .set({ status: 'pending', next_attempt_at: now, locked_until: null })
        .where('id', '=', deliveryId)
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
        .execute();
      webhooks.dispatcher.resume(id);
      return { delivery: (await findDelivery(db, id, deliveryId))! };
    },
  );
}
