import { challengeNameOf, displayHostname } from '@common/domains/hostname';
import type { Domain } from '@common/domains/domain-schemas';
import type { Database } from '../db/database';
import { dialectOf } from '../db/dialect';
import type { DomainRow } from '../db/schema';

// A workspace's domains as the routes read and write them. The link count comes from
// urls_domain_id_idx, one count per domain of the page (a workspace holds a handful).

export type DomainWithLinks = DomainRow & { links: number };

function withLinks(db: Database) {
  return db
    .selectFrom('domains')
    .selectAll('domains')
    .select((eb) => eb.selectFrom('urls').select(eb.fn.countAll<number>().as('n')).whereRef('urls.domain_id', '=', 'domains.id').as('links'));
}

const numbers = (row: DomainRow & { links: number | string | null }): DomainWithLinks => ({
  ...row,
  id: Number(row.id),
  workspace_id: Number(row.workspace_id),
  links: Number(row.links ?? 0),
});

export async function listWorkspaceDomains(db: Database, workspaceId: number): Promise<DomainWithLinks[]> {
  const rows = await withLinks(db).where('domains.workspace_id', '=', workspaceId).orderBy('domains.id').execute();
  return rows.map(numbers);
}

/** One of the workspace's domains; another workspace's is not found. */
export async function findWorkspaceDomain(db: Database, workspaceId: number, id: number): Promise<DomainWithLinks | undefined> {
  const row = await withLinks(db).where('domains.id', '=', id).where('domains.workspace_id', '=', workspaceId).executeTakeFirst();
  return row && numbers(row);
}

export async function countWorkspaceDomains(db: Database, workspaceId: number): Promise<number> {
  const row = await db.selectFrom('domains').select((eb) => eb.fn.countAll<number>().as('n')).where('workspace_id', '=', workspaceId).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function countDomainLinks(db: Database, domainId: number): Promise<number> {
  const row = await db.selectFrom('urls').select((eb) => eb.fn.countAll<number>().as('n')).where('domain_id', '=', domainId).executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Holds the workspace's row until the transaction ends, so two additions at once count each
 * other (PostgreSQL; SQLite's one writing connection serializes them already).
 */
export async function lockWorkspace(trx: Database, workspaceId: number): Promise<void> {
  if (dialectOf(trx) !== 'postgres') return;
  await trx.selectFrom('workspaces').select('id').where('id', '=', workspaceId).forUpdate().execute();
}

const iso = (ms: number) => new Date(Number(ms)).toISOString();

export function domainOf(row: DomainWithLinks): Domain {
  return {
    id: row.id,
    hostname: row.hostname,
    displayHostname: displayHostname(row.hostname),
    verified: row.verified_at !== null,
    verifiedAt: row.verified_at === null ? null : iso(row.verified_at),
    verification: { type: 'TXT', name: challengeNameOf(row.hostname), value: row.verification_token },
    rootRedirect: row.root_redirect,
    notFoundRedirect: row.not_found_redirect,
    disabled: row.disabled_at !== null,
    links: row.links,
    createdAt: iso(row.created_at),
  };
}

/** Whether any of these workspaces has a domain: their deletion then changes the hosted domains. */
export async function anyDomainIn(db: Database, workspaceIds: number[]): Promise<boolean> {
  if (workspaceIds.length === 0) return false;
  const row = await db.selectFrom('domains').select('id').where('workspace_id', 'in', workspaceIds).limit(1).executeTakeFirst();
  return row !== undefined;
}
