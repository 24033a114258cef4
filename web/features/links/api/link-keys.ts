// Query keys of the links feature: invalidating `all` refreshes every list and detail.
export const linkKeys = {
  all: ['links'] as const,
  lists: () => [...linkKeys.all, 'list'] as const,
  list: (search: string, status = '') => [...linkKeys.lists(), search, status] as const,
  detail: (id: number) => [...linkKeys.all, 'detail', id] as const,
};
