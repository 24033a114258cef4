import { checkHostname } from '@common/domains/hostname';
import { domainMessages } from '@common/domains/domain-messages';
import { errorMessages } from '@common/messages';
import type { AppContext } from '../app-context';
import type { Database } from '../db/database';
import { type DatabaseReader, rowsOn } from '../db/database-reader';
import { AppError } from '../http/app-error';

// Which of the workspace's custom domains a link answers on (docs/links.md, «Links on a custom
// domain»): creation, edit, bulk and import name it by hostname in any spelling; the link keeps its
// id (urls.domain_id), null being the instance's own host.

/** A link's custom domain: its id (urls.domain_id) and its hostname (lower case, punycode). */
export interface LinkDomain {
  id: number;
  hostname: string;
}

type Config = Pick<AppContext['config'], 'publicBaseUrl'>;

/** The instance's own host name as PUBLIC_BASE_URL has it: naming it means no custom domain. */
function isInstanceHost(config: Config, typed: string): boolean {
  const url = new URL(config.publicBaseUrl);
  const name = typed.trim().toLowerCase().replace(/\.$/, '');
  return name === url.hostname.toLowerCase() || name === url.host.toLowerCase();
}

/**
 * The domain a typed name stands for in a workspace: null for none (null, blank or the instance's
 * host), the domain when it is a verified, enabled one of the workspace, else the Spanish reason.
 */
export async function findLinkDomain(
  db: Database,
  config: Config,
  workspaceId: number,
  typed: string | null | undefined,
): Promise<{ domain: LinkDomain | null } | { error: string }> {
  if (typed == null || typed.trim() === '' || isInstanceHost(config, typed)) return { domain: null };
  const checked = checkHostname(typed);
  if ('error' in checked) return { error: checked.error };
  const row = await db
    .selectFrom('domains')
    .select(['id', 'workspace_id', 'hostname', 'verified_at', 'disabled_at'])
    .where('hostname', '=', checked.hostname)
    .executeTakeFirst();
  // Another workspace's domain is answered as an unknown one: its existence is not ours to tell.
  if (!row || Number(row.workspace_id) !== workspaceId) return { error: domainMessages.unknownForLink };
  if (row.verified_at === null) return { error: domainMessages.notVerified };
  if (row.disabled_at !== null) return { error: domainMessages.disabled };
  return { domain: { id: Number(row.id), hostname: row.hostname } };
}

/** findLinkDomain for one request: its refusal a 400 on the `domain` field. */
export async function resolveLinkDomain(db: Database, config: Config, workspaceId: number, typed: string | null | undefined): Promise<LinkDomain | null> {
  const found = await findLinkDomain(db, config, workspaceId, typed);
  if ('error' in found) throw new AppError('validation', errorMessages.validation, { domain: [found.error] });
  return found.domain;
}

/** findLinkDomain remembered by name, for the many rows of one import. */
export function linkDomainResolver(db: Database, config: Config, workspaceId: number) {
  const known = new Map<string, Promise<{ domain: LinkDomain | null } | { error: string }>>();
  return (typed: string | null | undefined) => {
    const name = (typed ?? '').trim().toLowerCase();
    let found = known.get(name);
    if (!found) {
      found = findLinkDomain(db, config, workspaceId, name);
      known.set(name, found);
    }
    return found;
  };
}

/**
 * The filter of GET /api/links?domain=: null for the links without a domain (the instance's host),
 * the domain's id, or undefined when the name is no domain of the workspace (the list is empty).
 * Any domain of the workspace, verified or not: its links are listed whatever its state.
 */
export async function linkDomainFilter(from: Database | DatabaseReader, config: Config, workspaceId: number, typed: string): Promise<number | null | undefined> {
  if (isInstanceHost(config, typed)) return null;
  const checked = checkHostname(typed);
  if ('error' in checked) return undefined;
  const [row] = await rowsOn(from, (db) => db.selectFrom('domains').select('id').where('hostname', '=', checked.hostname).where('workspace_id', '=', workspaceId));
  return row ? Number(row.id) : undefined;
}

/** Each domain's hostname by id, for the links of a page (a lookup by primary key of the few there are). */
export async function domainHostnamesOf(from: Database | DatabaseReader, domainIds: Array<number | null>): Promise<Map<number, string>> {
  const ids = [...new Set(domainIds.filter((id): id is number => id !== null).map(Number))];
  if (ids.length === 0) return new Map();
  const rows = await rowsOn(from, (db) => db.selectFrom('domains').select(['id', 'hostname']).where('id', 'in', ids));
  return new Map(rows.map((row) => [Number(row.id), row.hostname]));
}

/** The hostname of one link's domain (null on the instance's host). */
export async function domainHostnameOf(from: Database | DatabaseReader, domainId: number | null): Promise<string | null> {
  if (domainId === null) return null;
  return (await domainHostnamesOf(from, [domainId])).get(Number(domainId)) ?? null;
}
