import { linkMessages } from '@common/links/link-messages';
import { qrAddressOf, qrContentDisposition, qrQuerySchema } from '@common/links/qr-options';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../app-context';
import { linkActorFor } from './link-actor';
import { AppError } from '../http/app-error';
import { domainHostnameOf } from './link-domain';
import { shortLinkOf } from './link-mapper';
import { findWorkspaceLink } from './links.queries';
import { qrPngOf, qrSvgOf } from './printable-qr';

const idParams = z.object({ id: z.string() });

/**
 * GET /api/links/:id/qr: the link's QR made to order (PNG or SVG, size, quiet zone, colours, error
 * correction), for print. It carries the short address with ?qr=1, so its scans are counted, and
 * downloads under the link's title. Registered in the links scope (a session is required).
 */
export function linkQrRoute(app: FastifyInstance, { database, config }: Pick<AppContext, 'database' | 'config'>, linkIdOf: (raw: string) => number) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/links/:id/qr',
    { schema: { params: idParams, querystring: qrQuerySchema } },
    async (request, reply) => {
      const { workspace } = await linkActorFor(request, database.db, 'read');
      const row = await findWorkspaceLink(database.db, workspace.id, linkIdOf(request.params.id));
      if (!row) throw new AppError('not_found', linkMessages.notFound);
      const { format, ...options } = request.query;
      const domain = await domainHostnameOf(database.db, row.domain_id);
      const text = qrAddressOf(shortLinkOf(config.publicBaseUrl, { shortCode: row.short_url, customUrl: row.custom_url, domain }));
      void reply
        .header('content-disposition', qrContentDisposition(row.title, format))
        // Private to the owner; the image follows the link's address, which an edit may change.
        .header('cache-control', 'private, no-store');
      if (format === 'svg') return reply.type('image/svg+xml; charset=utf-8').send(qrSvgOf(text, options));
      return reply.type('image/png').send(await qrPngOf(text, options));
    },
  );
}
