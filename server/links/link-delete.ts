import { buckets } from '@common/constants';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../app-context';
import type { UrlRow } from '../db/schema';
import { holdAddresses, holdEnds } from './held-addresses';
import { deleteUserLink, formerAliasesOf } from './links.queries';

type Context = Pick<AppContext, 'database' | 'storage' | 'config' | 'linkCache' | 'clickLimits'>;

/**
 * Deletes these links of the user (DELETE /api/links/:id and POST /api/links/bulk-delete alike),
 * in one transaction: every address that led to each (code, alias, former aliases) is held for
 * its owner (held-addresses.ts). Then each stops redirecting on every instance, and its QR file is
 * tidied away. Ids that are not the user's are not touched. Returns the links deleted.
 */
export async function deleteUserLinks(context: Context, userId: number, ids: number[], log: FastifyBaseLogger): Promise<UrlRow[]> {
  const { database, storage, linkCache, config } = context;
  const deleted = await database.db.transaction().execute(async (trx) => {
    // Read before the delete, whose cascade takes them with the link.
    const previous = await formerAliasesOf(trx, ids);
    const gone: { row: UrlRow; previousAddresses: string[] }[] = [];
    for (const id of ids) {
      const row = await deleteUserLink(trx, userId, id);
      if (row) gone.push({ row, previousAddresses: previous.get(id) ?? [] });
    }
    const addresses = gone.flatMap(({ row, previousAddresses }) => [row.short_url, ...(row.custom_url === null ? [] : [row.custom_url]), ...previousAddresses]);
    if (addresses.length > 0) await holdAddresses(trx, addresses, userId, holdEnds(config.addressHoldDays));
    return gone;
  });
  for (const { row, previousAddresses } of deleted) {
    context.clickLimits.changed(row.id, null, null);
    // The short address must stop redirecting now, not when the cache entry ages out.
    await linkCache.forget({ shortCode: row.short_url, customUrl: row.custom_url, previousAddresses });
    // The row is gone: the QR file is only tidied up, and a failure there must not undo the answer.
    await storage.remove(buckets.qrs, row.qr).catch((error: unknown) => {
      log.warn({ err: error, key: row.qr }, 'could not remove a deleted link QR');
    });
  }
  return deleted.map(({ row }) => row);
}
