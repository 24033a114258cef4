import type { Workspace } from '@common/workspaces/workspace-schemas';
import { roleMay, type WorkspaceAction, type WorkspaceRole } from '@common/workspaces/workspace-roles';
import { createContext, type ReactNode, useContext } from 'react';
import type { WorkspaceScope } from './workspace-path';

// The workspace the screen acts in, named by the address: /w/{slug}/... provides it (the
// workspace layout), everything else is the personal workspace. Kept apart from the workspaces'
// API so the links feature can ask for it without downloading the rest.

export interface CurrentWorkspace {
  /** What API calls carry as ?workspace= (null: the personal workspace, nothing added). */
  scope: WorkspaceScope;
  /** The workspace itself, once the list of the caller's workspaces has arrived (the layout waits for it). */
  workspace: Workspace | undefined;
  /** The caller's role here: always owner of the personal workspace. */
  role: WorkspaceRole;
  /** Whether the caller's role here allows `action`. */
  may: (action: WorkspaceAction) => boolean;
}

const personal: CurrentWorkspace = { scope: null, workspace: undefined, role: 'owner', may: () => true };

const CurrentWorkspaceContext = createContext<CurrentWorkspace>(personal);

/** Provides the workspace named by the address to the screens under it. */
export function CurrentWorkspaceProvider({ workspace, children }: { workspace: Workspace; children: ReactNode }) {
  const value: CurrentWorkspace = {
    scope: workspace.slug,
    workspace,
    role: workspace.role,
    may: (action) => roleMay(workspace.role, action),
  };
  return <CurrentWorkspaceContext.Provider value={value}>{children}</CurrentWorkspaceContext.Provider>;
}

/** The workspace the screen acts in (the personal one outside /w/{slug}). */
export function useCurrentWorkspace(): CurrentWorkspace {
  return useContext(CurrentWorkspaceContext);
}

/** Only the slug the API calls carry: null for the personal workspace. */
export function useWorkspaceScope(): WorkspaceScope {
  return useContext(CurrentWorkspaceContext).scope;
}
