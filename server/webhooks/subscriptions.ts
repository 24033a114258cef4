import type { DeliveryEvent, WebhookEvent } from '@common/webhooks/webhook-schemas';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database';
import { type LinkBroadcast, openLinkBroadcast } from '../redirect/link-broadcast';

// Which enabled webhooks exist, held in memory on every instance: a click batch or a link change
// in a workspace nobody listens to writes nothing to the outbox and asks the database nothing
// more. Read again after every change to a webhook here, on every other instance through Redis
// (REDIS_URL), and every RELOAD_EVERY_MS regardless (an instance without Redis, a missed message).
// It only ever decides whether to look: which webhooks an event goes to is decided in the
// transaction that writes it, from the tables.

const CHANNEL = 'corto:webhooks:changed';
const RELOAD_EVERY_MS = 30_000;

export interface EnabledWebhook {
  id: number;
  workspaceId: number;
  url: string;
  secret: string;
  events: WebhookEvent[];
}

export interface WebhookSubscriptions {
  /** Resolves once the first read is done and, with Redis, this instance listens. */
  ready: Promise<void>;
  /** Whether any enabled webhook anywhere wants clicks (the click writer's one question per batch). */
  wantsClicks(): boolean;
  /** Whether an enabled webhook of the workspace wants the event. */
  wants(workspaceId: number, event: DeliveryEvent): boolean;
  /** The enabled webhooks, for the dispatcher. */
  enabled(): readonly EnabledWebhook[];
  isEnabled(webhookId: number): boolean;
  /** After a change to a webhook: read again here, and tell every other instance. */
  changed(): Promise<void>;
  /** Called after each reload (the dispatcher starts on webhooks enabled meanwhile). */
  onReload(listener: () => void): void;
  close(): Promise<void>;
}

export function parseEvents(events: string): WebhookEvent[] {
  try {
    const parsed: unknown = JSON.parse(events);
    return Array.isArray(parsed) ? (parsed as WebhookEvent[]) : [];
  } catch {
    return [];
  }
}

export function createWebhookSubscriptions({ db, redisUrl, log }: { db: Database; redisUrl: string | undefined; log: FastifyBaseLogger }): WebhookSubscriptions {
  let webhooks: EnabledWebhook[] = [];
  let byWorkspace = new Map<number, Set<string>>();
  let ids = new Set<number>();
  let clicks = false;
  const listeners: Array<() => void> = [];

  async function readTable() {
    const rows = await db.selectFrom('webhooks').select(['id', 'workspace_id', 'url', 'secret', 'events']).where('enabled', '=', 1).execute();
    webhooks = rows.map((row) => ({ id: Number(row.id), workspaceId: Number(row.workspace_id), url: row.url, secret: row.secret, events: parseEvents(row.events) }));
    byWorkspace = new Map();
    for (const webhook of webhooks) {
      const events = byWorkspace.get(webhook.workspaceId) ?? new Set<string>();
      for (const event of webhook.events) events.add(event);
      byWorkspace.set(webhook.workspaceId, events);
    }
    ids = new Set(webhooks.map((webhook) => webhook.id));
    clicks = webhooks.some((webhook) => webhook.events.includes('link.clicked'));
    for (const listener of listeners) listener();
  }

  // One read at a time; a change arriving during one is read by the next, which its caller awaits.
  let current: Promise<void> | undefined;
  let next: Promise<void> | undefined;
  function reload(): Promise<void> {
    if (!current) {
      current = readTable()
        .catch((error: unknown) => log.warn({ err: error }, 'webhooks: could not read the enabled webhooks'))
        .finally(() => {
          current = undefined;
        });
      return current;
    }
    next ??= current.then(() => {
      next = undefined;
      return reload();
    });
    return next;
  }

  const broadcast: LinkBroadcast | undefined = redisUrl
    ? openLinkBroadcast({ redisUrl, log, channel: CHANNEL, onForget: () => void reload(), onReconnect: () => void reload() })
    : undefined;
  const timer = setInterval(() => void reload(), RELOAD_EVERY_MS);
  timer.unref();

  return {
    ready: Promise.all([reload(), broadcast?.subscribed]).then(() => undefined),
    wantsClicks: () => clicks,
    wants: (workspaceId, event) => byWorkspace.get(workspaceId)?.has(event) ?? false,
    enabled: () => webhooks,
    isEnabled: (id) => ids.has(id),
    async changed() {
      await reload();
      await broadcast?.publish(['changed']);
    },
    onReload: (listener) => void listeners.push(listener),
    async close() {
      clearInterval(timer);
      await next;
      await current;
      await broadcast?.close();
    },
  };
}
