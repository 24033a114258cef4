import { BULK_EDIT_MAX_LINKS } from '@common/links/link-messages';
import type { BulkUpdateInput, BulkUpdateResult } from '@common/links/bulk-schemas';
import { type Link, type LinkList, tagKey } from '@common/links/link-schemas';
import { useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { withWorkspace, type WorkspaceScope } from '../../workspaces/workspace-path';
import { getLinks, type LinkListFilter } from './get-links';
import { linkKeys } from './link-keys';

type Changes = BulkUpdateInput['changes'];

function chunks(ids: number[]): number[][] {
  const parts: number[][] = [];
  for (let start = 0; start < ids.length; start += BULK_EDIT_MAX_LINKS) parts.push(ids.slice(start, start + BULK_EDIT_MAX_LINKS));
  return parts;
}

/** One change on every link named (all of the workspace), BULK_EDIT_MAX_LINKS a call (each call one transaction). */
export async function bulkUpdateLinks(scope: WorkspaceScope, ids: number[], changes: Changes): Promise<BulkUpdateResult> {
  const all: BulkUpdateResult = { updated: 0, results: [] };
  for (const part of chunks(ids)) {
    const answer = await apiFetch<BulkUpdateResult>(withWorkspace('/api/links/bulk-update', scope), { method: 'POST', body: JSON.stringify({ ids: part, changes }) });
    all.updated += answer.updated;
    all.results.push(...answer.results);
  }
  return all;
}

/** Deletes every link named; how many were. */
export async function bulkDeleteLinks(scope: WorkspaceScope, ids: number[]): Promise<number> {
  let deleted = 0;
  for (const part of chunks(ids)) {
    deleted += (await apiFetch<{ deleted: number }>(withWorkspace('/api/links/bulk-delete', scope), { method: 'POST', body: JSON.stringify({ ids: part }) })).deleted;
  }
  return deleted;
}

/** Every link the filter finds, not only the loaded pages ('Seleccionar todos los filtrados'). */
export async function allFilteredLinks(filter: LinkListFilter): Promise<Link[]> {
  const links: Link[] = [];
  let cursor: string | null = null;
  do {
    const page: LinkList = await getLinks(filter, cursor, undefined, 200);
    links.push(...page.links);
    cursor = page.nextCursor;
  } while (cursor);
  return links;
}

/**
 * The steps that put back what a bulk update changed: each link's pause as it was, each tag added
 * taken off where it was not before, each tag taken off given back where it was.
 */
export function undoSteps(result: BulkUpdateResult): { ids: number[]; changes: Changes }[] {
  const steps: { ids: number[]; changes: Changes }[] = [];
  const key = tagKey;
  for (const paused of [true, false]) {
    const ids = result.results.filter((link) => link.before.paused === paused && link.after.paused !== paused).map((link) => link.id);
    if (ids.length > 0) steps.push({ ids, changes: { paused } });
  }
  const added = new Map<string, { tag: string; ids: number[] }>();
  const removed = new Map<string, { tag: string; ids: number[] }>();
  for (const link of result.results) {
    const before = new Set(link.before.tags.map(key));
    const after = new Set(link.after.tags.map(key));
    for (const tag of link.after.tags) if (!before.has(key(tag))) added.set(key(tag), { tag, ids: [...(added.get(key(tag))?.ids ?? []), link.id] });
    for (const tag of link.before.tags) if (!after.has(key(tag))) removed.set(key(tag), { tag, ids: [...(removed.get(key(tag))?.ids ?? []), link.id] });
  }
  for (const { tag, ids } of added.values()) steps.push({ ids, changes: { removeTags: [tag] } });
  for (const { tag, ids } of removed.values()) steps.push({ ids, changes: { addTags: [tag] } });
  return steps;
}

/** After a bulk change: every list, detail and the tags are fetched again. */
export function useRefreshLinks() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: linkKeys.all });
}
