import { TAGS_PER_LINK, linkMessages } from '@common/links/link-messages';
import type { BulkUpdateResult } from '@common/links/bulk-schemas';
import { tagKey } from '@common/links/link-schemas';
import { errorMessages } from '@common/messages';
import type { AppContext } from '../app-context';
import type { Database } from '../db/database';
import { AppError } from '../http/app-error';
import { domainIdOf, forgetLinkAddresses, formerAliasKeysOf } from './link-addresses';
import { setLinkTags, tagsOf } from './link-tags';
import type { LinkActor } from './link-actor';
import { recordActivity } from '../workspaces/activity';
import { announceLinksUpdated } from '../webhooks/link-events';

type Context = Pick<AppContext, 'database' | 'linkCache' | 'config' | 'storage'> & Partial<Pick<AppContext, 'blockedDomains' | 'webhooks'>>;
type Changes = { paused?: boolean | undefined; addTags?: string[] | undefined; removeTags?: string[] | undefined };

/** A link's tags after adding some and taking others off (compared by tagKey; its own spellings kept). */
function changedTags(tags: string[], changes: Changes): string[] {
  const removed = new Set((changes.removeTags ?? []).map(tagKey));
  const next = tags.filter((tag) => !removed.has(tagKey(tag)));
  for (const tag of changes.addTags ?? []) {
    if (!next.some((have) => tagKey(have) === tagKey(tag))) next.push(tag);
  }
  return next;
}

const sameTags = (a: string[], b: string[]) => a.length === b.length && a.every((tag, i) => tagKey(tag) === tagKey(b[i]!));

/**
 * POST /api/links/bulk-update: pause or resume, add or take off tags, on every named link of the
 * workspace, in one transaction; ids that are not the workspace's are not touched (and not
 * counted). Each link changed gets its own activity entry, as a single edit does. When one
 * link would end with more than TAGS_PER_LINK tags, nothing changes (400, naming how many). Each
 * link's state before and after is answered, so the client can undo exactly what changed.
 */
export async function bulkUpdateLinks(context: Context, actor: LinkActor, ids: number[], changes: Changes): Promise<BulkUpdateResult> {
  const { db } = context.database;
  const workspaceId = actor.workspace.id;
  const now = Date.now();
  const results = await db.transaction().execute(async (trx: Database) => {
    const rows = await trx.selectFrom('urls').select(['id', 'paused', 'short_url', 'custom_url', 'domain_id']).where('workspace_id', '=', workspaceId).where('id', 'in', ids)
      // A link the operator disabled is left as it is, as a single edit leaves it (link-edit.ts).
      .where('disabled_at', 'is', null)
      .execute();
    const owned = rows.map((row) => row.id);
    if (owned.length === 0) return { rows, results: [], announced: false };
    const before = await tagsOf(trx, owned);
    const planned = rows.map((row) => {
      const tags = before.get(row.id) ?? [];
      return { row, tags, next: changedTags(tags, changes) };
    });
    if (planned.some((link) => link.next.length > TAGS_PER_LINK)) throw new AppError('validation', errorMessages.validation, { 'changes.addTags': [linkMessages.bulkTagsTooMany] });

    if (changes.paused !== undefined) {
      await trx.updateTable('urls').set({ paused: changes.paused ? 1 : 0, updated_at: now }).where('workspace_id', '=', workspaceId).where('id', 'in', owned).execute();
    }
    const activity = [];
    const changed: number[] = [];
    for (const { row, tags, next } of planned) {
      const retagged = !sameTags(tags, next);
      if (retagged) await setLinkTags(trx, workspaceId, row.id, next);
      // What really changed on this link, as a single edit's detail says it ('paused', 'tags').
      const fields = [
        ...(changes.paused !== undefined && changes.paused !== Boolean(row.paused) ? [changes.paused ? 'paused' : 'resumed'] : []),
        ...(retagged ? ['tags'] : []),
      ];
      if (fields.length > 0) {
        changed.push(row.id);
        activity.push({ workspaceId, actor: actor.user, action: 'link.edited' as const, target: row.custom_url ?? row.short_url, detail: fields.join(', ') });
      }
    }
    await recordActivity(trx, activity);
    // Each link that changed is a link.updated, as a single edit is.
    const announced = await announceLinksUpdated(trx, context, actor.workspace, changed);
    const after = await tagsOf(trx, owned);
    return {
      rows,
      announced,
      results: planned.map(({ row, tags }) => ({
        id: row.id,
        before: { paused: Boolean(row.paused), tags },
        after: { paused: changes.paused ?? Boolean(row.paused), tags: after.get(row.id) ?? [] },
      })),
    };
  });
  if (results.announced) context.webhooks?.announced();
  // A pause or a resumption must reach the redirect at once, on every instance.
  if (changes.paused !== undefined && results.rows.length > 0) {
    const previous = await formerAliasKeysOf(db, results.rows.map((row) => row.id));
    for (const row of results.rows) {
      const own = { domainId: domainIdOf(row.domain_id), shortCode: row.short_url, customUrl: row.custom_url };
      await forgetLinkAddresses(context.linkCache, own, previous.get(row.id) ?? []);
    }
  }
  return { updated: results.results.length, results: results.results };
}
