import type { WebhookEvent } from '@common/webhooks/webhook-schemas';
import type { AppContext } from '../app-context';
import type { Database } from '../db/database';
import type { UrlRow } from '../db/schema';
import { linksForApi } from '../links/link-answer';
import { announceLinkEvent } from './outbox';

type Context = Pick<AppContext, 'config' | 'storage'> & Partial<Pick<AppContext, 'blockedDomains' | 'webhooks'>>;

/**
 * Inside the transaction that creates, changes or deletes a link (a deletion: before its row
 * goes): the event, with the link as the API shows it, for each webhook of the workspace that
 * wants it. Costs nothing when no enabled webhook of the workspace wants the event. Returns
 * whether something was written (then call webhooks.announced() after the commit).
 */
export async function announceLinkChange(
  trx: Database,
  context: Context,
  workspace: { id: number; slug: string },
  event: Exclude<WebhookEvent, 'link.clicked'>,
  row: UrlRow,
): Promise<boolean> {
  if (!context.webhooks?.wants(workspace.id, event)) return false;
  const [link] = await linksForApi(trx, context, workspace.slug, [row]);
  return (await announceLinkEvent(trx, event, Number(row.id), link!)) > 0;
}

/** The same for several links changed in one transaction (a bulk edit): one read of them all. */
export async function announceLinksUpdated(trx: Database, context: Context, workspace: { id: number; slug: string }, ids: number[]): Promise<boolean> {
  if (ids.length === 0 || !context.webhooks?.wants(workspace.id, 'link.updated')) return false;
  const rows = await trx.selectFrom('urls').selectAll().where('id', 'in', ids).execute();
  const links = await linksForApi(trx, context, workspace.slug, rows);
  let written = 0;
  for (const [index, row] of rows.entries()) written += await announceLinkEvent(trx, 'link.updated', Number(row.id), links[index]!);
  return written > 0;
}
