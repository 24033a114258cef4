import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DOCS_PREFIX, OPENAPI_PATH } from './openapi';
import { type OpenApiDocument, REFERENCE_CSS, REFERENCE_CSS_FILE, renderReferencePage } from './reference-page';

const openApiDocument = z
  .looseObject({ openapi: z.string(), info: z.looseObject({}), paths: z.record(z.string(), z.unknown()) })
  .meta({ description: 'El documento OpenAPI 3.1 de esta API' });

/** GET /api/openapi.json (in the API's scope) and the reference page at /api/docs. */
export async function openApiRoutes(app: FastifyInstance): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get(
    OPENAPI_PATH,
    { schema: { response: { 200: openApiDocument } } },
    // Built once Fastify is ready and cached by @fastify/swagger; the routes do not change after that.
    async () => app.swagger() as z.infer<typeof openApiDocument>,
  );
}

/**
 * The reference page (server/openapi/reference-page.ts), rendered once from the same document as
 * /api/openapi.json, and its stylesheet: both under the site's own CSP, no script, no CDN.
 */
export async function docsPage(app: FastifyInstance): Promise<void> {
  const cssHref = `${DOCS_PREFIX}/${REFERENCE_CSS_FILE}`;
  let page: string | undefined;
  const send = async (_request: unknown, reply: FastifyReply) => {
    page ??= renderReferencePage(app.swagger() as unknown as OpenApiDocument, cssHref);
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(page);
  };
  app.get(DOCS_PREFIX, send);
  app.get(`${DOCS_PREFIX}/`, send);
  app.get(cssHref, async (_request, reply) => reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').send(REFERENCE_CSS));
}
