import type { Link } from '@common/links/link-schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { linkKeys } from './link-keys';

export function getLink(id: number, signal?: AbortSignal) {
  return apiFetch<{ link: Link }>(`/api/links/${id}`, { signal }).then((body) => body.link);
}

export function linkQueryOptions(id: number) {
  return queryOptions({ queryKey: linkKeys.detail(id), queryFn: ({ signal }) => getLink(id, signal) });
}

/** One of the caller's links; another user's or a missing one fails with a 404 ApiError. */
export function useLink(id: number) {
  return useQuery(linkQueryOptions(id));
}
