import { linkMessages } from '@common/links/link-messages';
import { ruleMessages } from '@common/rules/rule-messages';
import type { Variant } from '@common/rules/rule-schemas';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../http/app-error';
import type { LinkActor } from './link-actor';
import { type EditedLink, editLink } from './link-edit';
import { findWorkspaceLink } from './links.queries';

type Context = Parameters<typeof editLink>[0];

/**
 * POST /api/links/:id/variants/:index/winner ('Elegir ganador'): the variant at `index` (its place
 * in `variants`, from 0) becomes the link's destination and the A/B test ends. An edit like any
 * other (editLink): the same checks, activity entry and forgetting by every redirect cache. A link
 * without a test is a 409 (noTest): the request is sound, the link's state does not allow it.
 */
export async function chooseWinner(context: Context, actor: LinkActor, id: number, index: string, log: FastifyBaseLogger): Promise<EditedLink> {
  const row = await findWorkspaceLink(context.database.db, actor.workspace.id, id);
  if (!row) throw new AppError('not_found', linkMessages.notFound);
  const invalid = () => new AppError('validation', ruleMessages.winnerInvalid, { index: [ruleMessages.winnerInvalid] });
  if (!/^\d{1,2}$/.test(index)) throw invalid();
  if (row.variants === null) throw new AppError('conflict', ruleMessages.noTest);
  const winner = (JSON.parse(row.variants) as Variant[])[Number(index)];
  if (!winner) throw invalid();
  return editLink(context, actor, id, { longUrl: winner.url, variants: null }, log);
}
