import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DOCS_PREFIX, OPENAPI_PATH } from './openapi';

const openApiDocument = z
  .looseObject({ openapi: z.string(), info: z.looseObject({}), paths: z.record(z.string(), z.unknown()) })
  .meta({ description: 'El documento OpenAPI 3.1 de esta API' });

// The reference page's wording that is ours: its title and a little CSS for Corto's colours.
// Swagger UI itself has no Spanish translation; the document's own texts are Spanish.
const THEME_CSS = `.swagger-ui .topbar { background: #0f766e; } .swagger-ui .info .title { font-family: system-ui, sans-serif; }`;

/** GET /api/openapi.json (in the API's scope) and the reference page at /api/docs. */
export async function openApiRoutes(app: FastifyInstance): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get(
    OPENAPI_PATH,
    { schema: { response: { 200: openApiDocument } } },
    // Built once Fastify is ready and cached by @fastify/swagger; the routes do not change after that.
    async () => app.swagger() as z.infer<typeof openApiDocument>,
  );
}

/** The reference page, its script and styles served by Corto (no CDN), under our own CSP. */
export async function docsPage(app: FastifyInstance): Promise<void> {
  // The page is Spanish as far as it is ours: its language for screen readers and hyphenation.
  app.addHook('onSend', async (_request, reply, payload) =>
    typeof payload === 'string' && String(reply.getHeader('content-type')).startsWith('text/html')
      ? payload.replace('<html lang="en">', '<html lang="es">')
      : payload,
  );
  await app.register(fastifySwaggerUi, {
    routePrefix: DOCS_PREFIX,
    uiConfig: { url: OPENAPI_PATH, docExpansion: 'list', deepLinking: true, tryItOutEnabled: false, validatorUrl: null },
    theme: { title: 'API de Corto: referencia', css: [{ filename: 'corto.css', content: THEME_CSS }] },
    // Our CSP stays (helmet's, set on every answer): no inline script or style on this page either.
    staticCSP: false,
  });
}
