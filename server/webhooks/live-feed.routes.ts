import { linkMessages } from '@common/links/link-messages';
import { LIVE_STREAMS_PER_USER, webhookMessages } from '@common/webhooks/webhook-messages';
import type { ClickEventData } from '@common/webhooks/webhook-schemas';
import { PassThrough } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../app-context';
import { requireUser, signedInUser } from '../auth/require-user';
import { requestTokenHash, sessionStillValid } from '../auth/sessions';
import { AppError } from '../http/app-error';
import { findWorkspaceLink } from '../links/links.queries';
import { bearerSecretOf } from '../tokens/bearer-auth';
import { hashTokenSecret, looksLikeTokenSecret } from '../tokens/token-secret';
import { workspaceFor } from '../workspaces/workspace-access';

const idParams = z.object({ id: z.string() });
/** A watcher whose connection does not take what is written is cut off past this (it may reconnect). */
const MAX_UNSENT_BYTES = 1024 * 1024;
/** How long EventSource waits before reconnecting after the stream is cut. */
const RETRY_MS = 3000;

/** A link id from the path; anything but a positive integer names no link (404, as in the links API). */
function linkIdOf(raw: string): number {
  const id = /^[1-9]\d{0,14}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id)) throw new AppError('not_found', linkMessages.notFound);
  return id;
}

/**
 * GET /api/links/:id/live: Server-Sent Events with the link's clicks as they are written, for
 * whoever may read its statistics. A comment line every heartbeat keeps proxies from closing the
 * connection, and each heartbeat checks again that the session (or token) and the membership still
 * hold: logging out, a revoked token or leaving the workspace ends the stream within one.
 */
export async function liveFeedRoutes(app: FastifyInstance, context: AppContext) {
  const { db } = context.database;
  const { liveFeed, tokenCache, config } = context;
  const heartbeatMs = config.liveFeedHeartbeatMs;
  /** Open streams per user on this instance. */
  const openPerUser = new Map<number, number>();
  /** Each open stream's ending: the server's close ends them (it waits for open connections otherwise). */
  const openStreams = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of [...openStreams]) end();
  });

  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.addHook('preHandler', requireUser);

  async function workspaceLink(request: FastifyRequest, linkId: number) {
    const workspace = await workspaceFor(request, db, 'read');
    const link = await findWorkspaceLink(db, workspace.id, linkId);
    if (!link) throw new AppError('not_found', linkMessages.notFound);
    return link;
  }

  /** Whether the caller may still watch: their session or token holds and the link is still theirs to read. */
  async function stillAllowed(request: FastifyRequest, linkId: number): Promise<boolean> {
    try {
      if (request.apiToken) {
        const secret = bearerSecretOf(request);
        const owner = secret !== undefined && looksLikeTokenSecret(secret) ? await tokenCache.lookup(hashTokenSecret(secret)) : undefined;
        if (!owner?.member) return false;
      } else {
        const hash = requestTokenHash(request);
        if (hash === undefined || !(await sessionStillValid(db, hash))) return false;
      }
      await workspaceLink(request, linkId);
      return true;
    } catch (error) {
      if (error instanceof AppError) return false;
      // The database did not answer: no reason to cut a watcher off; the next heartbeat asks again.
      request.log.warn({ err: error }, 'live feed: could not check the watcher again');
      return true;
    }
  }

  routes.get(
    '/api/links/:id/live',
    {
      schema: {
        params: idParams,
        description:
          'Server-Sent Events (text/event-stream): each event\'s data is a click of the link as JSON (ClickEventData: no IP), as it is recorded, from every instance; a comment line every 15 s.',
      },
      // A stream lasts as long as the watcher stays: the API deadline is not for it.
      config: { longRunning: true },
    },
    async (request, reply) => {
      const user = signedInUser(request);
      const linkId = linkIdOf(request.params.id);
      await workspaceLink(request, linkId);
      const open = openPerUser.get(user.id) ?? 0;
      if (open >= LIVE_STREAMS_PER_USER) throw new AppError('rate_limited', webhookMessages.liveTooMany, undefined, Math.ceil(heartbeatMs / 1000));
      openPerUser.set(user.id, open + 1);

      const stream = new PassThrough();
      const write = (text: string) => {
        if (stream.writableEnded || stream.destroyed) return;
        if (stream.writableLength > MAX_UNSENT_BYTES) return end();
        stream.write(text);
      };
      let unsubscribe = () => {};
      let checking = false;
      const heartbeat = setInterval(() => {
        if (checking) return;
        checking = true;
        void stillAllowed(request, linkId).then((allowed) => {
          checking = false;
          if (!allowed) {
            // Said before ending, so the page stops reconnecting (a new attempt would be refused anyway).
            write('event: end\ndata: {"reason":"access"}\n\n');
            return end();
          }
          write(': sigue\n\n');
        });
      }, heartbeatMs);
      let ended = false;
      function end() {
        if (ended) return;
        ended = true;
        clearInterval(heartbeat);
        unsubscribe();
        openStreams.delete(end);
        const left = (openPerUser.get(user.id) ?? 1) - 1;
        if (left > 0) openPerUser.set(user.id, left);
        else openPerUser.delete(user.id);
        stream.end();
      }
      openStreams.add(end);
      reply.raw.on('close', end);
      stream.on('close', end);
      unsubscribe = liveFeed.subscribe(linkId, (event: ClickEventData) => write(`data: ${JSON.stringify(event)}\n\n`));
      // At once, so the watcher knows it is connected before the first click.
      write(`retry: ${RETRY_MS}\n: conectado\n\n`);

      return reply
        .header('content-type', 'text/event-stream; charset=utf-8')
        .header('cache-control', 'private, no-store')
        // nginx and the like buffer answers by default: events must go out as they come.
        .header('x-accel-buffering', 'no')
        // Not kept alive once the stream ends: a closing server waits for every open connection.
        .header('connection', 'close')
        .send(stream);
    },
  );
}
