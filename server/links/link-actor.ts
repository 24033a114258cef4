import type { WorkspaceAction } from '@common/workspaces/workspace-roles';
import type { FastifyRequest } from 'fastify';
import { signedInUser } from '../auth/require-user';
import type { Database } from '../db/database';
import { type CallerWorkspace, workspaceFor } from '../workspaces/workspace-access';

// Every links, tags and statistics route acts in one workspace (the one ?workspace= names, the
// token's, or the caller's personal one) as one person: the workspace decides what is found, the
// person is who created a link (urls.user_id), whose hourly quota it counts against and who the
// activity list names.

export interface LinkActor {
  workspace: Pick<CallerWorkspace, 'id' | 'slug'>;
  user: { id: number; name: string };
}

/** The caller and the workspace they act in, once they may do `action` there (403/404 otherwise). */
export async function linkActorFor(request: FastifyRequest, db: Database, action: WorkspaceAction): Promise<LinkActor> {
  const workspace = await workspaceFor(request, db, action);
  const user = signedInUser(request);
  return { workspace: { id: workspace.id, slug: workspace.slug }, user: { id: user.id, name: user.name } };
}
