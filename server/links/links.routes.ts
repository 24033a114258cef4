import { linkMessages } from '@common/links/link-messages';
import { bulkDeleteResponseSchema, bulkDeleteSchema, bulkUpdateResponseSchema, bulkUpdateSchema } from '@common/links/bulk-schemas';
import {
  bulkCreateSchema,
  bulkResponseSchema,
  type BulkResult,
  createLinkSchema,
  linkListSchema,
  linkResponseSchema,
  listLinksQuerySchema,
  tagKey,
  tagListSchema,
  updateLinkSchema,
  type Link,
} from '@common/links/link-schemas';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../app-context';
import { requireUser, signedInUser } from '../auth/require-user';
import { openDatabaseReader } from '../db/database-reader';
import { SEARCH_PAGE_CACHE_KIB } from '../db/sqlite-connection';
import { AppError } from '../http/app-error';
import { idempotencyKeyOf, withIdempotency } from '../idempotency/idempotency';
import { createLink } from './create-link';
import { createOne } from './link-batch';
import { bulkUpdateLinks } from './link-bulk-edit';
import { deleteUserLinks } from './link-delete';
import { linkImportRoutes } from './link-import.routes';
import { createCreationQuota } from './creation-quota';
import { rowToLink } from './link-mapper';
import { editLink, freeFormerAlias } from './link-edit';
import { linkQrRoute } from './link-qr';
import { exportFilename, linksCsv } from './link-export';
import { tagsOf, userTags } from './link-tags';
import { findUserLink, findUserTag, formerAliasesOf, linksStillExist, listUserLinks, tagWalk, userLinkTotals } from './links.queries';
import { decodeCursor, encodeCursor } from './list-cursor';

const idParams = z.object({ id: z.string() });
const addressParams = z.object({ id: z.string(), address: z.string() });

/** A link id from the path; anything but a positive integer names no link. */
function linkIdOf(raw: string): number {
  const id = /^[1-9]\d{0,14}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id)) throw new AppError('not_found', linkMessages.notFound);
  return id;
}


/** The caller's links: list (paged, filtered), create, one, delete. Every route needs a session. */
export async function linksRoutes(app: FastifyInstance, context: AppContext) {
  const { database } = context;
  const { db } = database;
  // The list, its search and its totals are read off the event loop (SQLite: on a thread).
  const reader = openDatabaseReader(database, app.log, 'links', { pageCacheKib: SEARCH_PAGE_CACHE_KIB });
  app.addHook('onClose', () => reader.close());
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.addHook('preHandler', requireUser);
  // Multipart, in a scope of its own (inherits the hook above).
  await app.register((scope) => linkImportRoutes(scope, context));

  routes.get(
    '/api/links',
    { schema: { querystring: listLinksQuerySchema, response: { 200: linkListSchema } } },
    async (request) => {
      const user = signedInUser(request);
      const { q, limit, cursor, status, tag, sort, order } = request.query;
      const after = decodeCursor(cursor, sort);
      const [totals, tagged] = await Promise.all([
        userLinkTotals(reader, user.id),
        tag ? findUserTag(reader, user.id, tagKey(tag)) : undefined,
      ]);
      // One more row than asked tells whether there is a next page without counting.
      const rows =
        tag && !tagged
          ? []
          : await listUserLinks(reader, user.id, {
              search: q,
              after,
              status,
              blocked: context.blockedDomains.domains,
              sort,
              order,
              limit: limit + 1,
              tag: tagged && { id: tagged.id, walk: tagWalk(tagged.links, totals.links, limit + 1) },
            });
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      const ids = page.map((row) => row.id);
      const [previous, tags] = await Promise.all([formerAliasesOf(reader, ids), tagsOf(reader, ids)]);
      return {
        links: page.map((row) => rowToLink(row, context, previous.get(row.id), tags.get(row.id))),
        totals,
        nextCursor: rows.length > limit && last ? encodeCursor(last, sort) : null,
        publicBaseUrl: context.config.publicBaseUrl,
      };
    },
  );

  const creationQuota = createCreationQuota(db, context.config.linksPerHour);
  routes.post(
    '/api/links',
    // strict: a field the API does not know (userId, shortCode, clicks...) is refused, not ignored.
    { schema: { body: createLinkSchema.strict(), response: { 201: linkResponseSchema } } },
    async (request, reply) => {
      const userId = signedInUser(request).id;
      const call = {
        userId,
        key: idempotencyKeyOf(request),
        scope: 'POST /api/links',
        body: request.body,
        stillExists: (answer: { link: Link }) => linksStillExist(db, userId, [answer.link]),
      };
      // A replay creates nothing, so it is not counted against the hour's quota.
      const answer = await withIdempotency(db, call, async () => {
        const row = await creationQuota.run(userId, reply, (claim) => createLink(context, userId, request.body, undefined, claim));
        const tags = (await tagsOf(db, [row.id])).get(row.id);
        return { statusCode: 201 as const, body: { link: rowToLink(row, context, [], tags) } };
      });
      if (answer.replayed) reply.header('idempotent-replayed', 'true');
      return reply.status(answer.statusCode).send(answer.body);
    },
  );

  routes.post(
    '/api/links/bulk',
    { schema: { body: bulkCreateSchema, response: { 200: bulkResponseSchema } } },
    async (request, reply) => {
      const userId = signedInUser(request).id;
      const call = {
        userId,
        key: idempotencyKeyOf(request),
        scope: 'POST /api/links/bulk',
        body: request.body,
        stillExists: (answer: { results: BulkResult[] }) => linksStillExist(db, userId, answer.results.flatMap((result) => ('link' in result ? [result.link] : []))),
      };
      const answer = await withIdempotency(db, call, async () => {
        const results = [];
        // In order, one at a time: each counts against the hour's quota as a single creation does.
        for (const body of request.body.links) {
          results.push(await createOne(context, userId, body, (create) => creationQuota.run(userId, reply, create)));
        }
        return { statusCode: 200 as const, body: { results } };
      });
      if (answer.replayed) reply.header('idempotent-replayed', 'true');
      return reply.status(answer.statusCode).send(answer.body);
    },
  );

  routes.get(
    '/api/links/:id',
    { schema: { params: idParams, response: { 200: linkResponseSchema } } },
    async (request) => {
      const row = await findUserLink(db, signedInUser(request).id, linkIdOf(request.params.id));
      if (!row) throw new AppError('not_found', linkMessages.notFound);
      const [previous, tags] = await Promise.all([formerAliasesOf(db, [row.id]), tagsOf(db, [row.id])]);
      return { link: rowToLink(row, context, previous.get(row.id), tags.get(row.id)) };
    },
  );

  linkQrRoute(app, context, linkIdOf);

  routes.patch(
    '/api/links/:id',
    { schema: { params: idParams, body: updateLinkSchema, response: { 200: linkResponseSchema } } },
    async (request) => {
      const edited = await editLink(context, signedInUser(request).id, linkIdOf(request.params.id), request.body, request.log);
      return { link: rowToLink(edited.row, context, edited.previousAddresses, edited.tags) };
    },
  );

  routes.get('/api/links.csv', async (request, reply) =>
    reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${exportFilename(Date.now())}"`)
      .header('cache-control', 'private, no-store')
      .send(Readable.from(linksCsv(reader, context.config, signedInUser(request).id))),
  );

  routes.get('/api/tags', { schema: { response: { 200: tagListSchema } } }, async (request) => ({
    tags: await userTags(reader, signedInUser(request).id),
  }));

  routes.delete('/api/links/:id/addresses/:address', { schema: { params: addressParams } }, async (request, reply) => {
    await freeFormerAlias(context, signedInUser(request).id, linkIdOf(request.params.id), request.params.address);
    return reply.status(204).send();
  });

  routes.delete('/api/links/:id', { schema: { params: idParams } }, async (request, reply) => {
    const deleted = await deleteUserLinks(context, signedInUser(request).id, [linkIdOf(request.params.id)], request.log);
    if (deleted.length === 0) throw new AppError('not_found', linkMessages.notFound);
    return reply.status(204).send();
  });

  routes.post(
    '/api/links/bulk-update',
    { schema: { body: bulkUpdateSchema, response: { 200: bulkUpdateResponseSchema } } },
    async (request) => bulkUpdateLinks(context, signedInUser(request).id, request.body.ids, request.body.changes),
  );

  routes.post(
    '/api/links/bulk-delete',
    { schema: { body: bulkDeleteSchema, response: { 200: bulkDeleteResponseSchema } } },
    async (request) => ({ deleted: (await deleteUserLinks(context, signedInUser(request).id, request.body.ids, request.log)).length }),
  );
}
