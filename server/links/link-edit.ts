import { buckets } from '@common/constants';
import { linkMessages } from '@common/links/link-messages';
import type { UpdateLink } from '@common/links/link-schemas';
import { qrAddressOf } from '@common/links/qr-options';
import { addressKey } from '@common/links/short-address';
import { errorMessages } from '@common/messages';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../app-context';
import { hashPassword } from '../auth/passwords';
import { isUniqueViolation } from '../db/dialect';
import type { UrlRow, UrlsTable } from '../db/schema';
import { AppError } from '../http/app-error';
import { destinationProblem } from './destination-policy';
import { routingColumns, routingProblems } from './link-routing';
import { saveDestinations } from '../rules/link-destinations';
import { shortLinkOf } from './link-mapper';
import { domainAddressKey, splitDomainKey } from '../domains/domain-keys';
import { domainIdOf, type FormerAliasKey, forgetLinkAddresses, formerAliasKeysOf } from './link-addresses';
import { domainHostnameOf, resolveLinkDomain } from './link-domain';
import { aliasColumns, findWorkspaceLink, formerAliasesOf, isAddressTaken, withTitleSearch } from './links.queries';
import { announceLinkChange } from '../webhooks/link-events';
import type { LinkActor } from './link-actor';
import { recordActivity } from '../workspaces/activity';
import { setLinkTags, tagsOf } from './link-tags';
import { qrKey, qrPng } from './qr';
import { previewColumns } from '../previews/preview-columns';
import type { Updateable } from 'kysely';

type Context = Pick<AppContext, 'database' | 'storage' | 'config' | 'linkCache' | 'clickLimits'> & Partial<Pick<AppContext, 'blockedDomains' | 'hostedDomains' | 'webhooks'>>;

export const aliasTaken = (why: 'taken' | 'held' = 'taken') => {
  const message = why === 'held' ? linkMessages.aliasHeld : linkMessages.aliasTaken;
  return new AppError('conflict', message, { customUrl: [message] });
};
const notFound = () => new AppError('not_found', linkMessages.notFound);

export interface EditedLink {
  row: UrlRow;
  /** The hostname of its custom domain after the edit; null on the instance's host. */
  domain: string | null;
  previousAddresses: string[];
  tags: string[];
}

/**
 * PATCH /api/links/:id. Everything is checked, then written in one transaction: a refused field
 * leaves the link, its former aliases and every cache as they were. A new alias keeps the old one
 * redirecting here (a former alias), the QR is made again for the new address under the same
 * key, and every instance's redirect cache forgets the link's addresses before the answer leaves.
 */
export async function editLink(context: Context, actor: LinkActor, id: number, input: UpdateLink, log: FastifyBaseLogger): Promise<EditedLink> {
  const { database, storage, config, linkCache } = context;
  const userId = actor.user.id;
  const workspaceId = actor.workspace.id;
  const policy = { publicBaseUrl: config.publicBaseUrl, allowPrivate: config.allowPrivateDestinations, blockedDomains: context.blockedDomains?.domains };
  const problem = input.longUrl === undefined ? undefined : destinationProblem(input.longUrl, policy);
  const routing = routingProblems(input, policy, context.hostedDomains);
  if (problem || routing) throw new AppError('validation', errorMessages.validation, { ...(problem ? { longUrl: [problem] } : {}), ...routing });
  // The domain it moves to (undefined: it stays where it is), checked before anything is written.
  const target = input.domain === undefined ? undefined : await resolveLinkDomain(database.db, config, workspaceId, input.domain);
  // Hashed before the transaction: argon2 takes milliseconds, a write lock should not. Only for the
  // workspace's own link, so nobody makes the server hash for links that are not theirs.
  let passwordHash: string | null | undefined = input.password === null ? null : undefined;
  if (typeof input.password === 'string') {
    if (!(await findWorkspaceLink(database.db, workspaceId, id))) throw notFound();
    passwordHash = await hashPassword(input.password);
  }

  const now = Date.now();
  let before: { row: UrlRow; former: FormerAliasKey[] };
  let after: EditedLink;
  let announced = false;
  try {
    ({ before, after } = await database.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('urls').selectAll().where('id', '=', id).where('workspace_id', '=', workspaceId).executeTakeFirst();
      if (!row) throw notFound();
      // The operator's decision stands: its owner may delete the link, not change what was judged.
      if (row.disabled_at !== null) throw new AppError('conflict', linkMessages.disabledByOperator);
      const former = (await formerAliasKeysOf(trx, [id])).get(id) ?? [];
      const changes: Updateable<UrlsTable> = { updated_at: now };
      // The searchable copy follows the title (the list's filter reads only it).
      if (input.title !== undefined) Object.assign(changes, withTitleSearch({ title: input.title }));
      if (input.longUrl !== undefined) changes.original_url = input.longUrl;
      if (input.paused !== undefined) changes.paused = input.paused ? 1 : 0;
      if (input.forwardQuery !== undefined) changes.forward_query = input.forwardQuery ? 1 : 0;
      if (input.expiresAt !== undefined) changes.expires_at = input.expiresAt === null ? null : Date.parse(input.expiresAt);
      if (input.maxClicks !== undefined) {
        changes.max_clicks = input.maxClicks;
        // A limit set anew counts the clicks the link already has: "maxClicks clicks reached".
        if (row.max_clicks === null && input.maxClicks !== null) changes.limit_used = row.click_count;
      }
      if (passwordHash !== undefined) changes.password_hash = passwordHash;
      Object.assign(changes, routingColumns(input), previewColumns(input.preview));

      // An alias changed, or the link moved to another domain: its alias is checked on the domain it
      // ends on, and the address it had keeps leading here (a former alias, on its own domain).
      const fromDomain = domainIdOf(row.domain_id);
      const toDomain = target === undefined ? fromDomain : (target?.id ?? null);
      if (toDomain !== fromDomain) changes.domain_id = toDomain;
      if (input.customUrl !== undefined || toDomain !== fromDomain) {
        const alias = input.customUrl !== undefined ? input.customUrl : row.custom_url;
        const newKey = alias === null ? null : domainAddressKey(toDomain, alias);
        if (newKey !== row.custom_url_key) {
          if (alias !== null && newKey !== null) {
            // Moving back to one of its own former aliases frees that one; anything else must be free.
            const own = await trx.deleteFrom('former_aliases').where('alias_key', '=', newKey).where('url_id', '=', id).executeTakeFirst();
            const taken = Number(own.numDeletedRows) === 0 && (await isAddressTaken(trx, alias, userId, toDomain));
            if (taken) throw aliasTaken(taken);
          }
          if (row.custom_url !== null && row.custom_url_key !== null) {
            await trx.insertInto('former_aliases').values({ alias_key: row.custom_url_key, alias: row.custom_url, url_id: id, created_at: now }).execute();
          }
        }
        Object.assign(changes, aliasColumns(alias, toDomain));
      }
      const updated = await trx.updateTable('urls').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
      if (input.tags !== undefined) await setLinkTags(trx, workspaceId, id, input.tags);
      await saveDestinations(trx, id, input.rules, input.variants);
      await recordActivity(trx, { workspaceId, actor: actor.user, action: 'link.edited', target: updated.custom_url ?? updated.short_url, detail: editedFields(input) });
      const nowPrevious = (await formerAliasesOf(trx, [id])).get(id) ?? [];
      const tags = (await tagsOf(trx, [id])).get(id) ?? [];
      const domain = target === undefined ? await domainHostnameOf(trx, domainIdOf(updated.domain_id)) : (target?.hostname ?? null);
      announced = await announceLinkChange(trx, context, actor.workspace, 'link.updated', updated);
      return { before: { row, former }, after: { row: updated, domain, previousAddresses: nowPrevious, tags } };
    }));
  } catch (error) {
    // Someone took the alias between the check and the write.
    if (isUniqueViolation(error)) throw aliasTaken();
    throw error;
  }

  // The preview removed takes its image along; a file left here is only the orphan sweep's.
  if (input.preview === null && before.row.preview_image_key !== null) {
    await storage
      .remove(buckets.previews, before.row.preview_image_key)
      .catch((error: unknown) => log.warn({ err: error, id }, "could not remove a removed preview's image"));
  }
  if (announced) context.webhooks?.announced();
  if (input.maxClicks !== undefined) context.clickLimits.changed(id, before.row.max_clicks, after.row.max_clicks);
  // Every address that led here before (on the domain it was on) or leads here now.
  const ownBefore = { domainId: domainIdOf(before.row.domain_id), shortCode: before.row.short_url, customUrl: before.row.custom_url };
  const ownAfter = { domainId: domainIdOf(after.row.domain_id), shortCode: after.row.short_url, customUrl: after.row.custom_url };
  await forgetLinkAddresses(linkCache, ownAfter, before.former, [ownBefore]);
  if (before.row.custom_url !== after.row.custom_url || ownBefore.domainId !== ownAfter.domainId) {
    // The printed QR keeps working through the former alias; a new one shows the new address.
    const shortLink = shortLinkOf(config.publicBaseUrl, { shortCode: after.row.short_url, customUrl: after.row.custom_url, domain: after.domain });
    await storage
      .put(buckets.qrs, qrKey(after.row.short_url), qrPng(qrAddressOf(shortLink)), 'image/png')
      .catch((error: unknown) => log.warn({ err: error, id }, 'could not remake an edited link QR'));
  }
  return after;
}

/**
 * An edit's activity detail: the fields it set, by their API names (a password's value never), a
 * pause or a resumption said as such: 'paused', 'resumed', 'title, longUrl'.
 */
export function editedFields(input: UpdateLink): string {
  return Object.keys(input)
    .map((field) => (field === 'paused' ? (input.paused ? 'paused' : 'resumed') : field))
    .join(', ');
}

/** DELETE /api/links/:id/addresses/:address: the former alias stops redirecting and is free for anyone. */
export async function freeFormerAlias(context: Pick<AppContext, 'database' | 'linkCache'>, actor: LinkActor, id: number, address: string) {
  const { db } = context.database;
  const link = await db
    .selectFrom('urls')
    .select(['id', 'short_url', 'custom_url', 'domain_id'])
    .where('id', '=', id)
    .where('workspace_id', '=', actor.workspace.id)
    .executeTakeFirst();
  if (!link) throw notFound();
  const key = addressKey(address.normalize('NFC'));
  const removed = await db.transaction().execute(async (trx) => {
    // The link's former alias of that name, on whichever domain it was made (a moved link has some on another).
    const own = ((await formerAliasKeysOf(trx, [id])).get(id) ?? []).find((alias) => splitDomainKey(alias.alias_key).key === key);
    if (!own) return undefined;
    await trx.deleteFrom('former_aliases').where('alias_key', '=', own.alias_key).where('url_id', '=', id).execute();
    const target = link.custom_url ?? link.short_url;
    await recordActivity(trx, { workspaceId: actor.workspace.id, actor: actor.user, action: 'link.edited', target, detail: `previousAddresses: ${own.alias}` });
    return own;
  });
  if (!removed) throw new AppError('not_found', linkMessages.addressNotFound);
  const { domainId } = splitDomainKey(removed.alias_key);
  await context.linkCache.forget({ domainId, shortCode: link.short_url, customUrl: domainId === domainIdOf(link.domain_id) ? link.custom_url : null, previousAddresses: [removed.alias] });
}
