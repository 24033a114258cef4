import type { ClickWriter } from './clicks/click-writer';
import type { Config } from './config';
import type { DatabaseHandle } from './db/database';
import type { ClickLimits } from './redirect/click-limit';
import type { BlockedDomains } from './admin/blocked-domains';
import type { HostedDomains } from './domains/hosted-domains';
import type { LinkCache } from './redirect/link-cache';
import type { LimiterFactory } from './rate-limits/shared-limiter';
import type { TokenCache } from './tokens/token-cache';
import type { ObjectStorage } from './storage/storage';
import type { LiveFeed } from './webhooks/live-feed';
import type { Webhooks } from './webhooks/webhooks';

/** What every capability's routes may use; built once in buildApp. */
export interface AppContext {
  config: Config;
  database: DatabaseHandle;
  storage: ObjectStorage;
  /** Redirect cache; call linkCache.forget(link) when a link is deleted. */
  linkCache: LinkCache;
  /** Places of links' click limits (redirects take them; an edit of a limit tells it). */
  clickLimits: ClickLimits;
  /** Queued clicks; clickWriter.flush() writes them now (drained on app close). */
  clickWriter: ClickWriter;
  /** Written clicks to whoever watches their link, on every instance (Redis when REDIS_URL is set). */
  liveFeed: LiveFeed;
  /** Rate limits shared by every instance through Redis (REDIS_URL), in memory otherwise. */
  limiters: LimiterFactory;
  /** API tokens by hash; tokenCache.forget / forgetUser when tokens end (every instance hears it). */
  tokenCache: TokenCache;
  /** The operator's blocked destination domains, held in memory on every instance. */
  blockedDomains: BlockedDomains;
  /** The workspaces' domains by name, held in memory on every instance (reloaded by linkCache.forgetAll). */
  hostedDomains: HostedDomains;
  /**
   * Webhooks: wants(workspace, event) before a link change announces itself (announceLinkEvent in
   * its transaction), announced() after its commit; the click writer asks clickAnnouncement().
   */
  webhooks: Webhooks;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The same context, for tests and tools that hold only the app. */
    appContext: AppContext;
  }
}
