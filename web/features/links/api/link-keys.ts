import type { WorkspaceScope } from '../../workspaces/workspace-path';
import type { LinkListFilter } from './get-links';

// Query keys of the links feature: invalidating `all` refreshes every list, detail and the tags.
// A list's filter names its workspace, and the tags are a workspace's; `lists()` and `tags()`
// without one reach every workspace's. A detail is keyed by the link's id alone: a link is in one
// workspace only.
export const linkKeys = {
  all: ['links'] as const,
  lists: () => [...linkKeys.all, 'list'] as const,
  list: (filter: LinkListFilter) => [...linkKeys.lists(), filter] as const,
  detail: (id: number) => [...linkKeys.all, 'detail', id] as const,
  tags: (scope?: WorkspaceScope) => (scope === undefined ? ([...linkKeys.all, 'tags'] as const) : ([...linkKeys.all, 'tags', scope] as const)),
};
