import { type LinkList, type listLinksQuerySchema, tagKey } from '@common/links/link-schemas';
import type { z } from 'zod';
import type { AppContext } from '../app-context';
import type { DatabaseReader } from '../db/database-reader';
import type { LinkActor } from './link-actor';
import { linksForApi } from './link-answer';
import { linkDomainFilter } from './link-domain';
import { findWorkspaceTag, listWorkspaceLinks, tagWalk, workspaceLinkTotals } from './links.queries';
import { decodeCursor, encodeCursor } from './list-cursor';

export type LinkListQuery = z.output<typeof listLinksQuerySchema>;

/**
 * One page of a workspace's links, filtered and sorted as the query says: GET /api/links and the
 * MCP tool that finds links both answer with it.
 */
export async function findLinks(
  reader: DatabaseReader,
  context: Pick<AppContext, 'config' | 'storage' | 'blockedDomains'>,
  workspace: LinkActor['workspace'],
  query: LinkListQuery,
): Promise<LinkList> {
  const { q, limit, cursor, status, tag, sort, order, createdBy, domain } = query;
  const after = decodeCursor(cursor, sort);
  const [totals, tagged, domainId] = await Promise.all([
    workspaceLinkTotals(reader, workspace.id),
    tag ? findWorkspaceTag(reader, workspace.id, tagKey(tag)) : undefined,
    // Blank: no filter. A name that is no domain of the workspace finds nothing, as an unknown tag.
    domain ? linkDomainFilter(reader, context.config, workspace.id, domain) : ('all' as const),
  ]);
  // One more row than asked tells whether there is a next page without counting.
  const rows =
    (tag && !tagged) || domainId === undefined
      ? []
      : await listWorkspaceLinks(reader, workspace.id, {
          search: q,
          createdBy,
          domainId: domainId === 'all' ? undefined : domainId,
          after,
          status,
          blocked: context.blockedDomains.domains,
          sort,
          order,
          limit: limit + 1,
          tag: tagged && { id: tagged.id, walk: tagWalk(tagged.links, totals.links, limit + 1) },
        });
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    links: await linksForApi(reader, context, workspace.slug, page),
    totals,
    nextCursor: rows.length > limit && last ? encodeCursor(last, sort) : null,
    publicBaseUrl: context.config.publicBaseUrl,
  };
}
