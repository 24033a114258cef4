import type { FastifyBaseLogger } from 'fastify';
import type { RuleCondition } from '@common/rules/rule-schemas';
import type { Database } from '../db/database';
import { domainAddressKey, splitDomainKey } from '../domains/domain-keys';
import { findLinkByCode } from './link-lookup';
import { type LinkBroadcast, openLinkBroadcast } from './link-broadcast';

/**
 * What a redirect needs: the link's id (for the click) and where to send the visitor. A plain link
 * (no pause, date, limit or password) has no gate, so the hot path's whole check is one
 * `gate === undefined`; a link with state carries it for the visitor's slower path.
 */
export interface CachedLink {
  id: number;
  url: string;
  gate?: LinkGate;
  /** Set only when the link passes a visit's query string on to its destination. */
  forwardQuery?: true;
  /** Set only for a link with rules or A/B variants: the answer chooses where each visit goes. */
  route?: LinkRoute;
  /** Set only for a status other than 302. */
  status?: 301 | 307 | 308;
  /** Set only for a link with a preview: the card preview bots get instead of the redirect. */
  preview?: CachedPreview;
}

/** A link's preview as the redirect keeps it; the image's address is made when a bot asks. */
export interface CachedPreview {
  /** The preview's title, or the link's own when only an image was given. */
  title: string;
  description: string | null;
  /** Storage key in bucket 'previews', or null. */
  imageKey: string | null;
}

/** A link's rules and variants as the redirect runs them (common/rules/choose-destination.ts). */
export interface LinkRoute {
  /** null without rules. URLs as Location headers take them (locationFor). */
  rules: readonly { when: RuleCondition; url: string }[] | null;
  /** null without an A/B test. */
  variants: readonly { url: string; weight: number }[] | null;
  /** link_destinations.id of each rule's URL, by position; undefined: counted as the link's own. */
  ruleIds: readonly (number | undefined)[];
  variantIds: readonly (number | undefined)[];
  /** A rule asks for the country: the geo database is opened for this link's visits. */
  needsCountry: boolean;
}

export interface LinkGate {
  /** Only a date to check (no pause, limit or password): the fast path answers it until then. */
  dateOnly: boolean;
  /** A click limit (perhaps a date too), no pause or password: the fast path takes its places. */
  limitOnly: boolean;
  /** By an operator (the link, its owner, or its domain): 410 before anything else. */
  disabled: boolean;
  paused: boolean;
  /** Epoch ms; Infinity for no date. */
  expiresAt: number;
  maxClicks: number | null;
  hasPassword: boolean;
}

/** The addresses that lead to a link: its short code, its alias, its former aliases. */
export interface LinkAddresses {
  /** The custom domain the addresses answer on; null or absent for the instance's own host. */
  domainId?: number | null;
  shortCode: string;
  customUrl: string | null;
  previousAddresses?: readonly string[];
}

export interface LinkCache {
  /**
   * The link for a short code or alias in any case, in domainAddressKey's form ('{domain id}/'
   * before it on a custom domain); synchronous on a hit, so the hot path never awaits. A non-ASCII
   * alias must come in NFC (addressKey's form); ASCII needs nothing.
   */
  peek(key: string): CachedLink | undefined;
  /**
   * peek, then the database on a miss; the answer is remembered. Unknown codes are not cached. The
   * address in any case and form, after the domain's prefix if any.
   */
  resolve(key: string): Promise<CachedLink | undefined>;
  /**
   * Drops the link (under every address given) here at once and, with REDIS_URL, on every other
   * instance: after a delete or an edit. Never throws.
   */
  forget(link: LinkAddresses): Promise<void>;
  /**
   * Drops every link here and on every other instance, which first reload what the operator
   * shares (the blocked domains): after a user is disabled or the blocked list changes.
   */
  forgetAll(): Promise<void>;
  readonly size: number;
  /** With REDIS_URL, resolves once deletions from other instances reach this one. */
  readonly listening: Promise<void>;
  close(): Promise<void>;
}

export interface LinkCacheOptions {
  db: Database;
  maxEntries: number;
  redisUrl: string | undefined;
  log: FastifyBaseLogger;
  /** Each link dropped by a forget (here or through Redis), or by emptying the cache. */
  onForgotten?(urlId: number): void;
  /** The blocked destination domains: a link leading into one is disabled. */
  blockedDomains?: { readonly domains: ReadonlySet<string>; load(): Promise<void> };
  /** The workspaces' domains, loaded again with the blocked ones when any instance asks (forgetAll). */
  hostedDomains?: { load(): Promise<void> };
}

export function createLinkCache({ db, maxEntries, redisUrl, log, onForgotten, blockedDomains, hostedDomains }: LinkCacheOptions): LinkCache {
  // Keys are domainAddressKey's form (lowercase, NFC, after the domain's '{id}/'): short codes are
  // lowercase already and aliases match regardless of case. For ASCII that is plain
  // toLowerCase(), all the hot path pays.
  const entries = new Map<string, CachedLink>();
  // Bumped by every forget, so a lookup that started before a delete cannot put the link back.
  let generation = 0;

  const drop = (keys: string[]) => {
    generation += 1;
    for (const key of keys) {
      const id = entries.get(key)?.id;
      entries.delete(key);
      if (id !== undefined) onForgotten?.(id);
    }
  };
  const clear = () => {
    generation += 1;
    const ids = new Set([...entries.values()].map((link) => link.id));
    entries.clear();
    if (onForgotten) for (const id of ids) onForgotten(id);
  };

  const reloadAndClear = async () => {
    try {
      await blockedDomains?.load();
    } catch (error) {
      log.warn({ err: error }, 'could not reload the blocked domains');
    }
    try {
      await hostedDomains?.load();
    } catch (error) {
      log.warn({ err: error }, "could not reload the workspaces' domains");
    }
    clear();
  };

  const broadcast: LinkBroadcast | undefined = redisUrl
    ? openLinkBroadcast({
        redisUrl,
        log,
        onForget: drop,
        // A subscriber that was cut off may have missed a forgetAll as well as deletions.
        onReconnect: () => void reloadAndClear(),
        onForgetAll: reloadAndClear,
      })
    : undefined;

  return {
    peek: (code) => entries.get(code.toLowerCase()),

    async resolve(code) {
      const split = splitDomainKey(code);
      const key = domainAddressKey(split.domainId, split.key);
      const hit = entries.get(key);
      if (hit) return hit;
      const startedAt = generation;
      const found = await findLinkByCode(db, key, blockedDomains?.domains, log);
      if (found && generation === startedAt) {
        // Insertion order is the eviction order: first in, first out once full. Cheaper than a
        // true LRU (no reordering on every hit), and popular links come straight back on a miss.
        if (entries.size >= maxEntries) {
          const oldest = entries.keys().next();
          if (!oldest.done) entries.delete(oldest.value);
        }
        entries.set(key, found);
      }
      return found;
    },

    async forget({ domainId, shortCode, customUrl, previousAddresses = [] }) {
      const keys = [domainAddressKey(domainId, shortCode)];
      if (customUrl) keys.push(domainAddressKey(domainId, customUrl));
      for (const address of previousAddresses) keys.push(domainAddressKey(domainId, address));
      drop(keys);
      await broadcast?.publish(keys);
    },

    async forgetAll() {
      clear();
      await broadcast?.publishForgetAll();
    },

    get size() {
      return entries.size;
    },

    listening: broadcast?.subscribed ?? Promise.resolve(),

    async close() {
      await broadcast?.close();
    },
  };
}
