import { errorMessages } from '@common/messages';
import { roleMay, type WorkspaceAction, type WorkspaceRole } from '@common/workspaces/workspace-roles';
import { workspaceMessages } from '@common/workspaces/workspace-messages';
import { tokenMessages } from '@common/tokens/token-messages';
import type { FastifyRequest } from 'fastify';
import type { Database } from '../db/database';
import { AppError } from '../http/app-error';

// The one place that answers "may this caller do this in this workspace" (docs/workspaces.md).
// Routes never compare user ids: they ask workspaceFor(request, action) and act in the workspace
// it returns. A workspace the caller does not belong to answers 404, as another user's link did;
// one they belong to with too low a role answers 403, as does a token naming another workspace.

export interface CallerWorkspace {
  id: number;
  slug: string;
  name: string;
  personal: boolean;
  role: WorkspaceRole;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** `?workspace=<slug>` as the request named it (read before the route's schema drops it); null if absent. */
    workspaceParam: string | null;
  }
}

/** onRequest hook: keeps `?workspace=` for workspaceFor, whatever the route's query schema keeps. */
export function rememberWorkspaceParam(request: FastifyRequest): void {
  const query = request.query as Record<string, unknown> | undefined;
  const value = query?.workspace;
  request.workspaceParam = typeof value === 'string' ? value.trim().toLowerCase() : Array.isArray(value) ? '\u0000' : null;
}

function membershipQuery(db: Database, userId: number) {
  return db
    .selectFrom('workspaces')
    .innerJoin('workspace_members', (join) =>
      join.onRef('workspace_members.workspace_id', '=', 'workspaces.id').on('workspace_members.user_id', '=', userId),
    )
    .select(['workspaces.id', 'workspaces.slug', 'workspaces.name', 'workspaces.personal_user_id', 'workspace_members.role']);
}

type MembershipRow = { id: number; slug: string; name: string; personal_user_id: number | null; role: WorkspaceRole };
const callerWorkspaceOf = (row: MembershipRow | undefined): CallerWorkspace | undefined =>
  row && { id: row.id, slug: row.slug, name: row.name, personal: row.personal_user_id !== null, role: row.role };

/** A member's workspace by slug, or their personal one (slug null), with their role there. */
export async function memberWorkspace(db: Database, userId: number, slug: string | null): Promise<CallerWorkspace | undefined> {
  const query = membershipQuery(db, userId);
  return callerWorkspaceOf(
    await (slug === null ? query.where('workspaces.personal_user_id', '=', userId) : query.where('workspaces.slug', '=', slug)).executeTakeFirst(),
  );
}

/** A member's workspace by id, with their role there. */
export async function memberWorkspaceById(db: Database, userId: number, workspaceId: number): Promise<CallerWorkspace | undefined> {
  return callerWorkspaceOf(await membershipQuery(db, userId).where('workspaces.id', '=', workspaceId).executeTakeFirst());
}

/**
 * The workspace this request acts in, once the caller may do `action` there: the one `?workspace=`
 * names, else the token's, else the caller's personal one. Needs request.user (requireUser first).
 */
export async function workspaceFor(request: FastifyRequest, db: Database, action: WorkspaceAction, slug = request.workspaceParam): Promise<CallerWorkspace> {
  const user = request.user;
  if (!user) throw new AppError('unauthorized', errorMessages.unauthorized);
  const tokenWorkspace = request.apiToken?.workspaceId;
  const workspace = await (tokenWorkspace !== undefined && slug === null
    ? memberWorkspaceById(db, user.id, tokenWorkspace)
    : memberWorkspace(db, user.id, slug));
  // The token's own workspace without its creator in it: they left since (the token cache may not know yet).
  if (!workspace && tokenWorkspace !== undefined && slug === null) throw new AppError('unauthorized', tokenMessages.creatorNotMember);
  if (!workspace) throw new AppError('not_found', workspaceMessages.notFound);
  if (tokenWorkspace !== undefined && workspace.id !== tokenWorkspace) throw new AppError('forbidden', workspaceMessages.tokenOtherWorkspace);
  if (!roleMay(workspace.role, action)) throw new AppError('forbidden', workspaceMessages.forbiddenRole);
  return workspace;
}
