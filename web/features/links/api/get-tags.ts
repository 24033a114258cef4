import type { TagList } from '@common/links/link-schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { linkKeys } from './link-keys';

/** The caller's tags with how many links carry each. */
export function getTags(signal?: AbortSignal) {
  return apiFetch<TagList>('/api/tags', { signal });
}

export function tagsQueryOptions() {
  return queryOptions({ queryKey: linkKeys.tags(), queryFn: ({ signal }) => getTags(signal) });
}

export function useTags() {
  return useQuery(tagsQueryOptions());
}
