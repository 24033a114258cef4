// Query keys of the workspaces feature: invalidating `all` refreshes the list and every workspace's pages.
export const workspaceKeys = {
  all: ['workspaces'] as const,
  list: () => [...workspaceKeys.all, 'list'] as const,
  one: (slug: string) => [...workspaceKeys.all, 'one', slug] as const,
  members: (slug: string) => [...workspaceKeys.one(slug), 'members'] as const,
  invites: (slug: string) => [...workspaceKeys.one(slug), 'invites'] as const,
  activity: (slug: string) => [...workspaceKeys.one(slug), 'activity'] as const,
  invitePreview: (token: string) => ['invites', token] as const,
};

/** A slug in a path segment of the API. */
export const slugPath = (slug: string) => `/api/workspaces/${encodeURIComponent(slug)}`;
