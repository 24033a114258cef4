import { WORKSPACES_PER_USER, workspaceMessages as m } from '@common/workspaces/workspace-messages';
import {
  createWorkspaceSchema,
  deleteWorkspaceSchema,
  updateWorkspaceSchema,
  workspaceListSchema,
  workspaceResponseSchema,
} from '@common/workspaces/workspace-schemas';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../app-context';
import type { SecretGuard } from '../account/password-check';
import { requireUser, signedInUser } from '../auth/require-user';
import { isUniqueViolation } from '../db/dialect';
import { AppError } from '../http/app-error';
import { recordActivity } from './activity';
import { deleteWorkspace } from './delete-workspace';
import { freeSlugFor } from './personal-workspace';
import { noContent, slugParams } from './route-params';
import { workspaceFor } from './workspace-access';
import { countOwnedTeams, insertTeamWorkspace, slugTaken, workspaceOf, workspacesOf } from './workspaces.queries';

const slugTakenError = () => new AppError('conflict', m.slugTaken, { slug: [m.slugTaken] });

/** /api/workspaces: the caller's list, a team workspace made, renamed, deleted. */
export async function workspacesRoutes(app: FastifyInstance, context: AppContext, guard: SecretGuard) {
  const { db } = context.database;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.addHook('preHandler', requireUser);

  routes.get('/api/workspaces', { schema: { response: { 200: workspaceListSchema } } }, async (request) => ({
    workspaces: await workspacesOf(db, signedInUser(request).id),
  }));

  routes.post(
    '/api/workspaces',
    { schema: { body: createWorkspaceSchema, response: { 201: workspaceResponseSchema } } },
    async (request, reply) => {
      const user = signedInUser(request);
      const { name, slug } = request.body;
      if ((await countOwnedTeams(db, user.id)) >= WORKSPACES_PER_USER) throw new AppError('conflict', m.tooMany);
      if (slug !== undefined && (await slugTaken(db, slug))) throw slugTakenError();
      for (let attempt = 0; ; attempt += 1) {
        try {
          const workspace = await db.transaction().execute(async (trx) => {
            const made = await insertTeamWorkspace(trx, user.id, name, slug ?? (await freeSlugFor(trx, name)));
            await recordActivity(trx, { workspaceId: made.id, actor: user, action: 'workspace.created', target: name });
            return made;
          });
          return reply.status(201).send({ workspace: workspaceOf(workspace) });
        } catch (error) {
          // Someone took the slug a moment ago: the one asked for is refused, a made-up one made again.
          if (!isUniqueViolation(error)) throw error;
          if (slug !== undefined || attempt >= 3) throw slugTakenError();
        }
      }
    },
  );

  routes.patch(
    '/api/workspaces/:slug',
    { schema: { params: slugParams, body: updateWorkspaceSchema, response: { 200: workspaceResponseSchema } } },
    async (request) => {
      const user = signedInUser(request);
      const workspace = await workspaceFor(request, db, 'own', request.params.slug);
      const name = request.body.name ?? workspace.name;
      const slug = request.body.slug ?? workspace.slug;
      if (name === workspace.name && slug === workspace.slug) return { workspace: workspaceOf(workspace) };
      if (slug !== workspace.slug && (await slugTaken(db, slug, workspace.id))) throw slugTakenError();
      try {
        await db.transaction().execute(async (trx) => {
          await trx.updateTable('workspaces').set({ name, slug }).where('id', '=', workspace.id).execute();
          const changes = [
            ...(name !== workspace.name ? [`«${workspace.name}» → «${name}»`] : []),
            ...(slug !== workspace.slug ? [`${workspace.slug} → ${slug}`] : []),
          ];
          await recordActivity(trx, { workspaceId: workspace.id, actor: user, action: 'workspace.renamed', target: name, detail: changes.join(' · ') });
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw slugTakenError();
        throw error;
      }
      return { workspace: workspaceOf({ ...workspace, name, slug }) };
    },
  );

  routes.delete(
    '/api/workspaces/:slug',
    { schema: { params: slugParams, body: deleteWorkspaceSchema, response: noContent } },
    async (request, reply) => {
      const user = signedInUser(request);
      const workspace = await workspaceFor(request, db, 'own', request.params.slug);
      if (workspace.personal) throw new AppError('conflict', m.personalNotDeletable);
      // The account's password, checked (and slowed down) as for deleting the account.
      await guard.password(request, reply, user.id, user.email, request.body.password, 'password');
      await deleteWorkspace(context, workspace.id, request.log);
      return reply.status(204).send(null);
    },
  );
}
