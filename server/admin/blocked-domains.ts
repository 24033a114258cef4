import type { Database } from '../db/database';
import { normalHost } from '../links/normal-host';

/**
 * The blocked destination domains, held in memory so the redirect's lookups and link creation
 * check them without a query. Each instance loads the list at start; a change is written to the
 * database, loaded again here, and announced to the other instances through the link cache's
 * broadcast (linkCache.forgetAll), which makes them load it again too.
 */
export interface BlockedDomains {
  readonly domains: ReadonlySet<string>;
  /** Reads the list from the database. */
  load(): Promise<void>;
  list(): string[];
  /** Writes the whole list (each domain in normalHost's form, without duplicates) and loads it. */
  replace(domains: string[]): Promise<void>;
}

export function createBlockedDomains(db: Database): BlockedDomains {
  let domains: ReadonlySet<string> = new Set();
  const load = async () => {
    const rows = await db.selectFrom('blocked_domains').select('domain').execute();
    domains = new Set(rows.map((row) => row.domain));
  };
  return {
    get domains() {
      return domains;
    },
    load,
    list: () => [...domains].sort(),
    async replace(list) {
      // The route's schema has refused what is no host, so normalHost finds a form for each.
      const wanted = [...new Set(list.map((domain) => normalHost(domain)).filter((domain) => domain !== undefined))];
      const now = Date.now();
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('blocked_domains').execute();
        for (let i = 0; i < wanted.length; i += 500) {
          const batch = wanted.slice(i, i + 500).map((domain) => ({ domain, created_at: now }));
          await trx.insertInto('blocked_domains').values(batch).execute();
        }
      });
      await load();
    },
  };
}
