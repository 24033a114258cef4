import type { LinkListFilter } from './get-links';

// Query keys of the links feature: invalidating `all` refreshes every list, detail and the tags.
export const linkKeys = {
  all: ['links'] as const,
  lists: () => [...linkKeys.all, 'list'] as const,
  list: (filter: LinkListFilter) => [...linkKeys.lists(), filter] as const,
  detail: (id: number) => [...linkKeys.all, 'detail', id] as const,
  tags: () => [...linkKeys.all, 'tags'] as const,
};
