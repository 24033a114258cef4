import { registerMultipart } from '../http/multipart';
import { buckets } from '@common/constants';
import { linkMessages } from '@common/links/link-messages';
import { linkResponseSchema } from '@common/links/link-schemas';
import { PREVIEW_IMAGE_MAX_BYTES, previewMessages as m } from '@common/previews/preview-messages';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../app-context';
import type { UrlRow } from '../db/schema';
import { AppError } from '../http/app-error';
import { domainIdOf, forgetLinkAddresses, formerAliasKeysOf } from '../links/link-addresses';
import { linkActorFor, type LinkActor } from '../links/link-actor';
import { linksForApi } from '../links/link-answer';
import { findWorkspaceLink } from '../links/links.queries';
import { recordActivity } from '../workspaces/activity';
import { bufferPreviewImage, storePreviewImage } from './preview-image';

const idParams = z.object({ id: z.string() });

/**
 * PUT and DELETE /api/links/:id/preview-image, in a scope of their own (multipart): the picture of
 * the link's card in chat apps (docs/links.md). 'write' on the link's workspace, as every edit.
 * The old file goes once the row names the new one; a file left behind by a failure is the
 * orphan sweep's.
 */
export async function previewImageRoutes(app: FastifyInstance, context: AppContext, linkIdOf: (raw: string) => number) {
  const { database, storage, linkCache } = context;
  const { db } = database;
  await registerMultipart(app, {
    attachFieldsToBody: 'keyValues',
    limits: { fileSize: PREVIEW_IMAGE_MAX_BYTES, files: 1, fields: 1, parts: 2, fieldSize: 1024 },
    onFile: bufferPreviewImage,
  });
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const bodySchema = z.object({ image: z.instanceof(Buffer, { error: m.imageRequired }) }).strict();

  /** The link, writable by the caller; an operator's decision stands, as for any edit. */
  const writableLink = async (actor: LinkActor, rawId: string) => {
    const row = await findWorkspaceLink(db, actor.workspace.id, linkIdOf(rawId));
    if (!row) throw new AppError('not_found', linkMessages.notFound);
    if (row.disabled_at !== null) throw new AppError('conflict', linkMessages.disabledByOperator);
    return row;
  };

  /** Writes the new key, forgets the cached link everywhere, tidies the old file: the link as the API gives it. */
  const setImage = async (actor: LinkActor, row: UrlRow, key: string | null, log: FastifyBaseLogger) => {
    const updated = await db.transaction().execute(async (trx) => {
      const changed = await trx
        .updateTable('urls')
        .set({ preview_image_key: key, updated_at: Date.now() })
        .where('id', '=', row.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await recordActivity(trx, { workspaceId: actor.workspace.id, actor: actor.user, action: 'link.edited', target: changed.custom_url ?? changed.short_url, detail: 'preview.image' });
      return changed;
    });
    const former = (await formerAliasKeysOf(db, [row.id])).get(row.id) ?? [];
    await forgetLinkAddresses(linkCache, { domainId: domainIdOf(updated.domain_id), shortCode: updated.short_url, customUrl: updated.custom_url }, former);
    if (row.preview_image_key !== null && row.preview_image_key !== key) {
      await storage.remove(buckets.previews, row.preview_image_key).catch((error: unknown) => log.warn({ err: error, id: row.id }, 'could not remove a replaced preview image'));
    }
    const [link] = await linksForApi(db, context, actor.workspace.slug, [updated]);
    return { link: link! };
  };

  routes.put(
    '/api/links/:id/preview-image',
    {
      schema: {
        description: 'Sube la imagen de la vista previa (multipart, campo image): JPEG, PNG o WebP de hasta 5 MB, recortada a 1200×630.',
        consumes: ['multipart/form-data'],
        params: idParams,
        body: bodySchema,
        response: { 200: linkResponseSchema },
      },
    },
    async (request) => {
      const actor = await linkActorFor(request, db, 'write');
      const row = await writableLink(actor, request.params.id);
      const key = await storePreviewImage(storage, row.id, request.body.image);
      try {
        return await setImage(actor, row, key, request.log);
      } catch (error) {
        await storage.remove(buckets.previews, key).catch(() => {});
        throw error;
      }
    },
  );

  routes.delete(
    '/api/links/:id/preview-image',
    { schema: { description: 'Quita la imagen de la vista previa (el título y la descripción se quedan).', params: idParams, response: { 200: linkResponseSchema } } },
    async (request) => {
      const actor = await linkActorFor(request, db, 'write');
      return setImage(actor, await writableLink(actor, request.params.id), null, request.log);
    },
  );
}
