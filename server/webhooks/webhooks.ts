import type { DeliveryEvent } from '@common/webhooks/webhook-schemas';
import type { FastifyBaseLogger } from 'fastify';
import type { ClickAnnouncement } from '../clicks/click-batch';
import type { Config } from '../config';
import type { DatabaseHandle } from '../db/database';
import { createMailer } from '../mail/mailer';
import { createWebhookDispatcher, type WebhookDispatcher } from './dispatcher';
import { createDeliveryAgents } from './safe-agent';
import { createWebhookSubscriptions, type WebhookSubscriptions } from './subscriptions';

/** What other rooms use of webhooks (AppContext.webhooks). */
export interface Webhooks {
  subscriptions: WebhookSubscriptions;
  dispatcher: WebhookDispatcher;
  /** Whether a link change in the workspace must be announced (then announceLinkEvent in its transaction). */
  wants(workspaceId: number, event: DeliveryEvent): boolean;
  /** For the click writer: set while some webhook wants clicks. */
  clickAnnouncement(): ClickAnnouncement | undefined;
  /** Whether a receiver host, as written, is one deliveries would refuse (a private address or name). */
  agentsRefuse(hostname: string): boolean;
  /** After a commit that wrote to the outbox: the dispatcher looks now. */
  announced(): void;
  /** Reads the enabled webhooks and starts the dispatcher. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export function createWebhooks({ database, config, log }: { database: DatabaseHandle; config: Config; log: FastifyBaseLogger }): Webhooks {
  const subscriptions = createWebhookSubscriptions({ db: database.db, redisUrl: config.redisUrl, log });
  const agents = createDeliveryAgents(config.allowPrivateDestinations);
  const mailer = createMailer(config);
  const dispatcher = createWebhookDispatcher({ database, subscriptions, agents, log, mailer, publicBaseUrl: config.publicBaseUrl, leaseMs: config.webhookLeaseMs });
  const announcement = { publicBaseUrl: config.publicBaseUrl };
  return {
    subscriptions,
    dispatcher,
    wants: (workspaceId, event) => subscriptions.wants(workspaceId, event),
    clickAnnouncement: () => (subscriptions.wantsClicks() ? announcement : undefined),
    agentsRefuse: (hostname) => !agents.hostAllowed(hostname),
    announced: () => dispatcher.wake(),
    async start() {
      await subscriptions.ready;
      dispatcher.start();
    },
    async close() {
      await dispatcher.stop();
      await subscriptions.close();
      agents.close();
      mailer?.close();
    },
  };
}
