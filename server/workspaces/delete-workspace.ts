import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../app-context';
import { domainsChanged } from '../domains/domains-changed';
import { anyDomainIn } from '../domains/domains.queries';
import { forgetRemovedLinks, removeLinks } from '../links/links-removal';

// Deleting a team workspace (its owner with the password, or an operator): everything in it goes,
// and its links stop at once on every instance, as an account deletion's do (links-removal.ts).

export interface DeletedWorkspace {
  id: number;
  slug: string;
  name: string;
  links: number;
}

/**
 * Removes the workspace with its links (clicks, roll-ups, former aliases: their addresses held for
 * nobody), tags, members, invitations, activity and API tokens (forgotten in every token cache).
 * Undefined for an unknown id. The caller refuses a personal workspace first.
 */
export async function deleteWorkspace(context: AppContext, workspaceId: number, log?: FastifyBaseLogger): Promise<DeletedWorkspace | undefined> {
  const { db } = context.database;
  // Clicks still queued for these links would only be refused once the links are gone.
  await context.clickWriter.flush().catch(() => {});
  const removed = await db.transaction().execute(async (trx) => {
    const workspace = await trx.selectFrom('workspaces').select(['id', 'slug', 'name']).where('id', '=', workspaceId).executeTakeFirst();
    if (!workspace) return undefined;
    const links = await removeLinks(trx, { workspaceIds: [workspaceId] }, context.config.addressHoldDays);
    const tokens = await trx.deleteFrom('api_tokens').where('workspace_id', '=', workspaceId).returning('token_hash').execute();
    const hadDomains = await anyDomainIn(trx, [workspaceId]);
    // Members, invitations, activity, tags, totals and domains cascade with it.
    await trx.deleteFrom('workspaces').where('id', '=', workspaceId).execute();
    return { workspace, links, hadDomains, tokenHashes: tokens.map((token) => token.token_hash) };
  });
  if (!removed) return undefined;
  if (removed.tokenHashes.length > 0) await context.tokenCache.forget(removed.tokenHashes);
  await forgetRemovedLinks(context, removed.links, log);
  if (removed.hadDomains) await domainsChanged(context);
  const { workspace } = removed;
  return { id: Number(workspace.id), slug: workspace.slug, name: workspace.name, links: removed.links.length };
}
