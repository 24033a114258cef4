import { buckets } from '@common/constants';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../app-context';
import type { Database } from '../db/database';
import { holdAddresses, holdEnds } from './held-addresses';
import { addressKeysOf, domainIdOf, type FormerAliasKey, forgetLinkAddresses, type LinkOwnAddresses } from './link-addresses';

// Links removed wholesale, for nobody to take back: a workspace deleted (DELETE
// /api/workspaces/:slug, the operator's DELETE /api/admin/workspaces/:id) and an account deleted
// (DELETE /api/account, DELETE /api/admin/users/:id). Two halves: removeLinks inside the caller's
// transaction (rows gone, addresses held), then forgetRemovedLinks after its commit, so a lookup
// racing with the deletion sees no row and cannot put a link back in a cache.

/** How many links' addresses are forgotten at once (each is one Redis publish with REDIS_URL). */
const FORGET_BATCH = 100;

export interface RemovedLink extends LinkOwnAddresses {
  /** Its former aliases with their keys, each on its domain. */
  former: FormerAliasKey[];
  qr: string;
}

/** Which links: those of these workspaces, and those `createdBy` created wherever nobody took them over. */
export interface LinkSelection {
  workspaceIds: number[];
  createdBy?: number;
}

function selectedLinks(db: Database, { workspaceIds, createdBy }: LinkSelection) {
  return db.selectFrom('urls').where((eb) =>
    eb.or([
      ...(workspaceIds.length > 0 ? [eb('urls.workspace_id', 'in', workspaceIds)] : []),
      ...(createdBy !== undefined ? [eb('urls.user_id', '=', createdBy)] : []),
    ]),
  );
}

const selectsNothing = ({ workspaceIds, createdBy }: LinkSelection) => workspaceIds.length === 0 && createdBy === undefined;

/**
 * Deletes the selected links with their clicks, roll-ups, unique-visitor rows and former aliases,
 * and holds every address that led to them (code, alias, former aliases) for ADDRESS_HOLD_DAYS, for
 * nobody (held-addresses.ts). Run inside a transaction; returns what forgetRemovedLinks needs.
 */
export async function removeLinks(trx: Database, selection: LinkSelection, holdDays: number): Promise<RemovedLink[]> {
  if (selectsNothing(selection)) return [];
  const rows = await selectedLinks(trx, selection).select(['urls.id', 'urls.short_url', 'urls.custom_url', 'urls.domain_id', 'urls.qr']).execute();
  if (rows.length === 0) return [];
  // Joined rather than listed by id: a workspace may hold more links than a statement takes parameters.
  const aliases = await selectedLinks(trx, selection)
    .innerJoin('former_aliases', 'former_aliases.url_id', 'urls.id')
    .select(['former_aliases.url_id', 'former_aliases.alias', 'former_aliases.alias_key'])
    .execute();
  const former = new Map<number, FormerAliasKey[]>();
  for (const { url_id, alias, alias_key } of aliases) former.set(Number(url_id), [...(former.get(Number(url_id)) ?? []), { alias, alias_key }]);
  const links: RemovedLink[] = rows.map((row) => ({
    domainId: domainIdOf(row.domain_id),
    shortCode: row.short_url,
    customUrl: row.custom_url,
    former: former.get(Number(row.id)) ?? [],
    qr: row.qr,
  }));
  // Each on its domain (domainAddressKey): the same alias on another domain is another address.
  const addresses = links.flatMap((link) => addressKeysOf(link, link.former));
  await holdAddresses(trx, addresses, null, holdEnds(holdDays));

  // Children first; the foreign keys cascade too, but naming each table keeps this the one list.
  const ids = selectedLinks(trx, selection).select('urls.id');
  await trx.deleteFrom('former_aliases').where('url_id', 'in', ids).execute();
  await trx.deleteFrom('click_visitors').where('url_id', 'in', ids).execute();
  await trx.deleteFrom('click_destination_visitors').where('url_id', 'in', ids).execute();
  await trx.deleteFrom('click_rollups').where('url_id', 'in', ids).execute();
  await trx.deleteFrom('clicks').where('url_id', 'in', ids).execute();
  await trx.deleteFrom('link_destinations').where('url_id', 'in', ids).execute();
  await trx.deleteFrom('urls').where('id', 'in', ids).execute();
  return links;
}

/**
 * After the commit: the removed links' addresses stop redirecting at once on this instance and,
 * with REDIS_URL, on every other; their QR files are tidied up (one that cannot be removed now is an
 * orphan the storage sweep takes later).
 */
export async function forgetRemovedLinks(
  context: Pick<AppContext, 'linkCache' | 'storage'>,
  links: RemovedLink[],
  log: FastifyBaseLogger | undefined,
): Promise<void> {
  for (let start = 0; start < links.length; start += FORGET_BATCH) {
    await Promise.all(links.slice(start, start + FORGET_BATCH).map((link) => forgetLinkAddresses(context.linkCache, link, link.former)));
  }
  for (const link of links) {
    await context.storage.remove(buckets.qrs, link.qr).catch((error: unknown) => {
      log?.warn({ err: error, bucket: buckets.qrs, key: link.qr }, 'could not remove a deleted link QR');
    });
  }
}
