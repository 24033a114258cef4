import { buckets } from '@common/constants';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../app-context';
import type { UrlRow } from '../db/schema';
import { holdAddresses, holdEnds } from './held-addresses';
import { recordActivity } from '../workspaces/activity';
import type { LinkActor } from './link-actor';
import { addressKeysOf, domainIdOf, type FormerAliasKey, forgetLinkAddresses, formerAliasKeysOf, type LinkOwnAddresses } from './link-addresses';
import { deleteWorkspaceLink } from './links.queries';
import { announceLinkChange } from '../webhooks/link-events';

type Context = Pick<AppContext, 'database' | 'storage' | 'config' | 'linkCache' | 'clickLimits'> & Partial<Pick<AppContext, 'blockedDomains' | 'webhooks'>>;

/**
 * Deletes these links of the actor's workspace (DELETE /api/links/:id and POST /api/links/bulk-delete
 * alike), in one transaction: every address that led to each (code, alias, former aliases) is held
 * for the one who deleted it (held-addresses.ts), and each deletion goes in the workspace's activity.
 * Then each stops redirecting on every instance, and its QR file is tidied away. Ids that are not
 * the workspace's are not touched. Returns the links deleted.
 */
export async function deleteWorkspaceLinks(context: Context, actor: LinkActor, ids: number[], log: FastifyBaseLogger): Promise<UrlRow[]> {
  const userId = actor.user.id;
  const { database, storage, linkCache, config } = context;
  let announced = false;
  const deleted = await database.db.transaction().execute(async (trx) => {
    // Read before the delete, whose cascade takes them with the link.
    const previous = await formerAliasKeysOf(trx, ids);
    const gone: { row: UrlRow; own: LinkOwnAddresses; former: FormerAliasKey[] }[] = [];
    const announcing = context.webhooks?.wants(actor.workspace.id, 'link.deleted') ?? false;
    for (const id of ids) {
      // Announced with the link as it was, before its tags and filter rows go with it.
      if (announcing) {
        const before = await trx.selectFrom('urls').selectAll().where('id', '=', id).where('workspace_id', '=', actor.workspace.id).executeTakeFirst();
        if (before && (await announceLinkChange(trx, context, actor.workspace, 'link.deleted', before))) announced = true;
      }
      const row = await deleteWorkspaceLink(trx, actor.workspace.id, id);
      if (row) gone.push({ row, own: { domainId: domainIdOf(row.domain_id), shortCode: row.short_url, customUrl: row.custom_url }, former: previous.get(id) ?? [] });
    }
    // Each on its domain: the same alias on another domain is another address.
    const addresses = gone.flatMap(({ own, former }) => addressKeysOf(own, former));
    if (addresses.length > 0) await holdAddresses(trx, addresses, userId, holdEnds(config.addressHoldDays));
    // One entry per link, a bulk deletion's too (at most BULK_EDIT_MAX_LINKS): the list tells which links
    // went, each findable by its address, rather than a count nobody can check.
    await recordActivity(
      trx,
      gone.map(({ row }) => ({ workspaceId: actor.workspace.id, actor: actor.user, action: 'link.deleted' as const, target: row.custom_url ?? row.short_url, detail: row.title })),
    );
    return gone;
  });
  if (announced) context.webhooks?.announced();
  for (const { row, own, former } of deleted) {
    context.clickLimits.changed(row.id, null, null);
    // The short address must stop redirecting now, not when the cache entry ages out.
    await forgetLinkAddresses(linkCache, own, former);
    // The row is gone: the QR file is only tidied up, and a failure there must not undo the answer.
    await storage.remove(buckets.qrs, row.qr).catch((error: unknown) => {
      log.warn({ err: error, key: row.qr }, 'could not remove a deleted link QR');
    });
    if (row.preview_image_key !== null) {
      await storage.remove(buckets.previews, row.preview_image_key).catch((error: unknown) => {
        log.warn({ err: error, key: row.preview_image_key }, "could not remove a deleted link's preview image");
      });
    }
  }
  return deleted.map(({ row }) => row);
}
