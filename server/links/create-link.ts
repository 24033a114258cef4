import { buckets } from '@common/constants';
import type { CreateLink } from '@common/links/link-schemas';
import { linkMessages } from '@common/links/link-messages';
import { qrAddressOf } from '@common/links/qr-options';
import { errorMessages } from '@common/messages';
import { isReservedPath } from '@common/reserved-paths';
import type { AppContext } from '../app-context';
import { isUniqueViolation } from '../db/dialect';
import type { UrlRow } from '../db/schema';
import { AppError } from '../http/app-error';
import type { ClaimOne } from './creation-quota';
import { destinationProblem } from './destination-policy';
import { resolveLinkDomain } from './link-domain';
import { routingColumns, routingProblems } from './link-routing';
import { saveDestinations } from '../rules/link-destinations';
import { shortLinkOf } from './link-mapper';
import { setLinkTags } from './link-tags';
import { insertLink, isAddressTaken } from './links.queries';
import type { LinkActor } from './link-actor';
import { recordActivity } from '../workspaces/activity';
import { qrKey, qrPng } from './qr';
import { newShortCode } from './short-code';
import { announceLinkChange } from '../webhooks/link-events';

// With 2.2 billion codes a collision is rare; a few draws make failing all of them practically impossible.
const MAX_CODE_ATTEMPTS = 5;

const aliasTaken = (why: 'taken' | 'held' = 'taken') => {
  const message = why === 'held' ? linkMessages.aliasHeld : linkMessages.aliasTaken;
  return new AppError('conflict', message, { customUrl: [message] });
};

/**
 * A short code that is free as a code (across the instance) and as an address on the instance's
 * host and on the link's domain, and is not one of the app's paths.
 */
async function freeShortCode(db: AppContext['database']['db'], drawCode: () => string, domainId: number | null): Promise<string> {
  for (let attempt = 0; attempt < MAX_CODE_ATTEMPTS; attempt += 1) {
    const code = drawCode();
    if (isReservedPath(code) || (await isAddressTaken(db, code))) continue;
    if (domainId === null || !(await isAddressTaken(db, code, undefined, domainId))) return code;
  }
  throw new Error('No free short code after several attempts');
}

/** A link just created, with the hostname of its custom domain (null on the instance's host). */
export type CreatedLink = UrlRow & { domainHostname: string | null };

/**
 * Creates a link in the actor's workspace, made by the actor: QR stored first, then the row (and
 * its activity entry). If the row cannot be written the QR is removed, so storage never keeps a
 * file no link points to.
 */
export async function createLink(
  { database, storage, config, blockedDomains, hostedDomains, webhooks }: Pick<AppContext, 'database' | 'storage' | 'config'> &
    Partial<Pick<AppContext, 'blockedDomains' | 'hostedDomains' | 'webhooks'>>,
  actor: LinkActor,
  input: Omit<CreateLink, 'tags' | 'domain'> & { tags?: string[]; domain?: string | null | undefined },
  /** Where codes come from; tests pass a fixed sequence to exercise collisions. */
  drawCode: () => string = newShortCode,
  /** Run first in the transaction that inserts: the hourly quota's claim (creation-quota.ts). */
  claim?: ClaimOne,
  /** false for an import's rows, which its one summarising entry records (and no webhook announces). */
  recordsActivity = true,
): Promise<CreatedLink> {
  const { db } = database;
  const userId = actor.user.id;
  const policy = { publicBaseUrl: config.publicBaseUrl, allowPrivate: config.allowPrivateDestinations, blockedDomains: blockedDomains?.domains };
  const destination = destinationProblem(input.longUrl, policy);
  const routing = routingProblems(input, policy, hostedDomains);
  if (destination || routing) {
    throw new AppError('validation', errorMessages.validation, { ...(destination ? { longUrl: [destination] } : {}), ...routing });
  }
  const domain = await resolveLinkDomain(db, config, actor.workspace.id, input.domain);
  const domainId = domain?.id ?? null;
  const taken = input.customUrl && (await isAddressTaken(db, input.customUrl, userId, domainId));
  if (taken) throw aliasTaken(taken);

  for (let attempt = 0; attempt < MAX_CODE_ATTEMPTS; attempt += 1) {
    const shortCode = await freeShortCode(db, drawCode, domainId);
    const key = qrKey(shortCode);
    const shortLink = shortLinkOf(config.publicBaseUrl, { shortCode, customUrl: input.customUrl, domain: domain?.hostname ?? null });
    await storage.put(buckets.qrs, key, qrPng(qrAddressOf(shortLink)), 'image/png');
    try {
      // The link and its tags together, or neither.
      const created = await db.transaction().execute(async (trx) => {
        await claim?.(trx);
        const row = await insertLink(trx, {
          workspace_id: actor.workspace.id,
          user_id: userId,
          title: input.title,
          original_url: input.longUrl,
          custom_url: input.customUrl,
          short_url: shortCode,
          domain_id: domainId,
          qr: key,
          created_at: Date.now(),
          forward_query: input.forwardQuery ? 1 : 0,
          ...routingColumns({ rules: input.rules ?? null, variants: input.variants ?? null, redirectType: input.redirectType }),
          ...(input.preview ? { preview_title: input.preview.title, preview_description: input.preview.description } : {}),
        });
        await setLinkTags(trx, actor.workspace.id, row.id, input.tags ?? []);
        await saveDestinations(trx, row.id, input.rules, input.variants);
        if (recordsActivity) {
          await recordActivity(trx, { workspaceId: actor.workspace.id, actor: actor.user, action: 'link.created', target: row.custom_url ?? row.short_url, detail: row.title });
        }
        // An import's rows are not announced one by one, as they are not recorded one by one.
        const announced = recordsActivity && (await announceLinkChange(trx, { config, storage, blockedDomains, webhooks }, actor.workspace, 'link.created', row));
        return { ...row, domainHostname: domain?.hostname ?? null, announced };
      });
      const { announced, ...link } = created;
      if (announced) webhooks?.announced();
      return link;
    } catch (error) {
      // The insert's error is the one to report; a file left behind would only be an orphan.
      await storage.remove(buckets.qrs, key).catch(() => undefined);
      if (!isUniqueViolation(error)) throw error;
      // Someone took the alias or the code in the meantime: the alias is final, the code is drawn again.
      const takenNow = input.customUrl && (await isAddressTaken(db, input.customUrl, userId, domainId));
      if (takenNow) throw aliasTaken(takenNow);
    }
  }
  throw new Error('No free short code after several attempts');
}
