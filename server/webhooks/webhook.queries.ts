import type { Delivery, DeliveryEvent, DeliveryStatus, Webhook } from '@common/webhooks/webhook-schemas';
import { WEBHOOK_DELIVERIES_SHOWN } from '@common/webhooks/webhook-messages';
import type { Selectable } from 'kysely';
import type { Database } from '../db/database';
import type { WebhookDeliveriesTable, WebhooksTable } from '../db/schema';
import { parseEvents } from './subscriptions';

type WebhookRow = Selectable<WebhooksTable>;
type DeliveryRow = Selectable<WebhookDeliveriesTable>;

const iso = (ms: number | string) => new Date(Number(ms)).toISOString();

export function webhookOf(row: WebhookRow, links: number[]): Webhook {
  return {
    id: Number(row.id),
    url: row.url,
    events: parseEvents(row.events),
    links,
    enabled: row.enabled === 1,
    disabledReason: row.disabled_reason,
    failuresInARow: Number(row.failures_in_a_row),
    createdAt: iso(row.created_at),
  };
}

export function deliveryOf(row: DeliveryRow): Delivery {
  return {
    id: Number(row.id),
    event: row.event as DeliveryEvent,
    status: row.status as DeliveryStatus,
    responseStatus: row.response_status === null ? null : Number(row.response_status),
    durationMs: row.duration_ms === null ? null : Number(row.duration_ms),
    attempts: Number(row.attempts),
    nextAttemptAt: row.status === 'pending' && row.next_attempt_at !== null ? iso(row.next_attempt_at) : null,
    createdAt: iso(row.created_at),
    error: row.error,
  };
}

/** Each webhook's filter, by webhook id. */
export async function webhookLinksOf(db: Database, webhookIds: number[]): Promise<Map<number, number[]>> {
  const links = new Map<number, number[]>();
  if (webhookIds.length === 0) return links;
  const rows = await db.selectFrom('webhook_links').select(['webhook_id', 'url_id']).where('webhook_id', 'in', webhookIds).orderBy('url_id').execute();
  for (const row of rows) links.set(Number(row.webhook_id), [...(links.get(Number(row.webhook_id)) ?? []), Number(row.url_id)]);
  return links;
}

export async function listWebhooks(db: Database, workspaceId: number): Promise<Webhook[]> {
  const rows = await db.selectFrom('webhooks').selectAll().where('workspace_id', '=', workspaceId).orderBy('id').execute();
  const links = await webhookLinksOf(db, rows.map((row) => Number(row.id)));
  return rows.map((row) => webhookOf(row, links.get(Number(row.id)) ?? []));
}

export async function findWebhookRow(db: Database, workspaceId: number, id: number): Promise<WebhookRow | undefined> {
  return db.selectFrom('webhooks').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst();
}

export async function findWebhook(db: Database, workspaceId: number, id: number): Promise<Webhook | undefined> {
  const row = await findWebhookRow(db, workspaceId, id);
  return row && webhookOf(row, (await webhookLinksOf(db, [id])).get(id) ?? []);
}

/** How many of these link ids are links of the workspace. */
export async function countWorkspaceLinks(db: Database, workspaceId: number, ids: number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const row = await db
    .selectFrom('urls')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .where('id', 'in', ids)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function setWebhookLinks(trx: Database, webhookId: number, ids: number[]): Promise<void> {
  await trx.deleteFrom('webhook_links').where('webhook_id', '=', webhookId).execute();
  if (ids.length > 0) await trx.insertInto('webhook_links').values(ids.map((url_id) => ({ webhook_id: webhookId, url_id }))).execute();
  await trx.updateTable('webhooks').set({ filtered: ids.length > 0 ? 1 : 0 }).where('id', '=', webhookId).execute();
}

export async function listDeliveries(db: Database, webhookId: number): Promise<Delivery[]> {
  const rows = await db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('webhook_id', '=', webhookId)
    .orderBy('id', 'desc')
    .limit(WEBHOOK_DELIVERIES_SHOWN)
    .execute();
  return rows.map(deliveryOf);
}

export async function findDelivery(db: Database, webhookId: number, id: number): Promise<Delivery | undefined> {
  const row = await db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', webhookId).where('id', '=', id).executeTakeFirst();
  return row && deliveryOf(row);
}
