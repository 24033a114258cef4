import fastifySwagger from '@fastify/swagger';
import { apiErrorSchema } from '@common/api-error';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../config';
import { SESSION_COOKIE } from '../auth/sessions';
import { isPublicRoute, tokenMayCall, tokenOnly } from '../tokens/api-access';
import { errorStatusesOf, statusDescriptions, takesWorkspace } from './error-statuses';
import { operationSummaries } from './operation-summaries';

// The OpenAPI 3.1 document of every /api route, generated from the zod schemas the routes validate
// with (fastify-type-provider-zod's transforms through @fastify/swagger): nothing kept by hand but
// the words around them. Registered before any route, so it sees them all.

export const OPENAPI_PATH = '/api/openapi.json';
export const DOCS_PREFIX = '/api/docs';

const errorJsonSchema = z.toJSONSchema(apiErrorSchema, { target: 'draft-2020-12' });
const errorExample = { error: { code: 'validation', message: 'Revisa los datos del formulario.', fields: { longUrl: ['La URL debe ser válida'] } } };

/** API_RATE_LIMIT as a reader needs it: the number this instance applies. */
const perMinute = (limit: number) => (limit > 0 ? `${new Intl.NumberFormat('es').format(limit)} peticiones por minuto` : 'sin límite en esta instancia');

const rateLimitHeadersOf = (limit: number) => ({
  'RateLimit-Limit': { type: 'integer', description: `Peticiones por minuto de este token (en esta instancia, ${perMinute(limit)}).` },
  'RateLimit-Remaining': { type: 'integer', description: 'Peticiones que quedan en esta ventana.' },
  'RateLimit-Reset': { type: 'integer', description: 'Segundos hasta que la ventana vuelve a empezar.' },
});

const TAGS: Array<[string, string, string]> = [
  ['/api/links', 'Links', 'Tus links: crear, listar, editar, borrar, estadísticas, QR y CSV.'],
  ['/api/tags', 'Links', ''],
  ['/api/mcp', 'Asistentes (MCP)', 'El servidor MCP (Model Context Protocol) para asistentes de IA: solo con token (docs/api.md, «Corto en tu asistente»).'],
  ['/api/tokens', 'Tokens de API', 'Tokens personales (solo con sesión en la web).'],
  ['/api/auth', 'Sesión', 'Registro, inicio y cierre de sesión.'],
  ['/api/account', 'Cuenta', 'Tu cuenta (solo con sesión en la web).'],
  ['/api/workspaces', 'Espacios de trabajo', 'Espacios de trabajo, miembros, invitaciones y actividad (solo con sesión en la web).'],
  ['/api/invites', 'Espacios de trabajo', ''],
  ['/api/domains', 'Dominios', 'Dominios propios de un espacio de trabajo (solo con sesión en la web) y la consulta de certificados de Caddy.'],
  ['/api/admin', 'Administración', 'Operación de la instancia (solo administradores).'],
];

function tagOf(url: string): string {
  return TAGS.find(([prefix]) => url === prefix || url.startsWith(`${prefix}/`) || url.startsWith(`${prefix}.`))?.[1] ?? 'Servicio';
}

/**
 * Answers that are no operation: the MCP endpoint's GET and DELETE, which its stateless server
 * refuses with 405 because the protocol asks a server to say so.
 */
const NOT_OPERATIONS = new Set(['GET /api/mcp', 'HEAD /api/mcp', 'DELETE /api/mcp']);

/** Routes that belong in the document: the API's, less the reference page's own files and the refusals above. */
export function documented(url: string, method?: string): boolean {
  if (method !== undefined && NOT_OPERATIONS.has(`${method} ${url}`)) return false;
  return (url === '/api' || url.startsWith('/api/')) && url !== DOCS_PREFIX && !url.startsWith(`${DOCS_PREFIX}/`);
}

type RouteSchema = Record<string, unknown> & { response?: Record<string, unknown> };

/** Creations that honour Idempotency-Key (server/idempotency/). */
const IDEMPOTENT = new Set(['POST /api/links', 'POST /api/links/bulk']);
const idempotencyHeader = {
  type: 'object',
  properties: {
    'idempotency-key': {
      type: 'string',
      pattern: '^[\\x21-\\x7e]{1,255}$',
      description:
        'Opcional. Un reintento con la misma clave (durante 24 h, por usuario) devuelve la primera respuesta sin crear nada; ' +
        'la misma clave con otros datos responde 422.',
      examples: ['3f1c9a0e-2b7d-4c55-9a61-0d2f8e7b4a10'],
    },
  },
};
/** Bodies sent as multipart/form-data (a file among the fields). */
const MULTIPART = new Set(['POST /api/auth/register', 'PUT /api/account/picture', 'POST /api/links/import']);

/**
 * Request examples for the schemas that carry none of their own (a zod schema gives its examples
 * with .meta({ examples }), as common/tokens does). Only examples: every rule comes from zod.
 */
const requestExamples: Record<string, unknown> = {
  'POST /api/links': { title: 'Mi portfolio', longUrl: 'https://example.com/portfolio', customUrl: 'portfolio-2026' },
  'PATCH /api/links/:id': { title: 'Mi portfolio (nuevo)', paused: false, maxClicks: 1000 },
  'POST /api/links/bulk-update': { ids: [42, 43], changes: { paused: true, addTags: ['verano'] } },
  'POST /api/links/bulk-delete': { ids: [42, 43] },
  'POST /api/auth/login': { email: 'ana@example.com', password: 'una-clave-larga' },
};

/** `?workspace=<slug>`: read by an onRequest hook (workspace-access.ts), so in no route's own schema. */
const workspaceParameter = {
  type: 'string',
  description:
    'Opcional. El identificador del espacio de trabajo en el que actuar; sin él, tu espacio personal ' +
    '(o, con un token, el espacio en el que se creó). Un espacio del que no eres miembro responde 404; ' +
    'un rol insuficiente, 403.',
  examples: ['marketing'],
};

const successDescription: Record<string, string> = { '200': 'Correcto', '201': 'Creado', '202': 'Aceptado', '204': 'Hecho, sin contenido' };

export async function registerOpenApi(app: FastifyInstance, config: Config): Promise<void> {
  const rateLimitHeaders = rateLimitHeadersOf(config.apiRateLimit);
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'API de Corto',
        version: '1',
        description:
          'Acortador de links autoalojado. Los programas se autentican con un token personal ' +
          '(`Authorization: Bearer corto_...`, creado en «Tokens de API»); la web, con su cookie de sesión. ' +
          'Los errores siempre llevan el sobre `{ error: { code, message, fields? } }` con mensajes en español.',
      },
      servers: [{ url: config.publicBaseUrl }],
      tags: [...new Map(TAGS.filter(([, , text]) => text).map(([, name, text]) => [name, { name, description: text }])).values()],
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description: `Token personal de API. \`read\`: solo GET; \`write\`: todo. Límite por token: ${perMinute(config.apiRateLimit)}.`,
          },
          cookieAuth: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: 'La sesión de la web (las escrituras piden Origin propio).' },
        },
      },
    },
    transform(input) {
      const { url, route } = input;
      if (!documented(url, String(input.route.method))) return { schema: { hide: true } as never, url };
      const original = (route.schema ?? {}) as RouteSchema;
      const method = String(input.route.method);
      const transformed = jsonSchemaTransform(input) as { schema: RouteSchema; url: string };
      const schema: RouteSchema = { ...transformed.schema };
      if (takesWorkspace(method, url)) {
        const query = (schema.querystring ?? { type: 'object', properties: {} }) as { properties?: Record<string, unknown> };
        schema.querystring = { ...query, properties: { ...query.properties, workspace: workspaceParameter } };
      }
      const responses: Record<string, unknown> = { ...(schema.response ?? {}) };
      const bearer = tokenMayCall(url) || tokenOnly(url);
      // Answers with no schema of their own: a CSV, an empty 200, an empty 204.
      if (url.endsWith('.csv')) responses['200'] = { description: 'CSV (UTF-8)', content: { 'text/csv': { schema: { type: 'string' } } } };
      if (url.endsWith('/live')) {
        responses['200'] = { description: 'Server-Sent Events: el data de cada evento es un clic (ClickEventData)', content: { 'text/event-stream': { schema: { type: 'string' } } } };
      }
      if (!Object.keys(responses).some((status) => status.startsWith('2'))) {
        responses[method === 'DELETE' || method === 'POST' ? '204' : '200'] =
          method === 'DELETE' || method === 'POST' ? { type: 'null', description: 'Hecho, sin contenido' } : { description: 'Correcto', type: 'object' };
      }
      for (const [status, response] of Object.entries(responses) as Array<[string, Record<string, unknown>]>) {
        if (successDescription[status] && !response.description) response.description = successDescription[status];
      }
      const key = `${method} ${url}`;
      if (!schema.summary && operationSummaries[key]) schema.summary = operationSummaries[key];
      if (IDEMPOTENT.has(key)) schema.headers = idempotencyHeader;
      if (MULTIPART.has(key)) schema.consumes = ['multipart/form-data'];
      const body = schema.body as Record<string, unknown> | undefined;
      if (body && requestExamples[key] !== undefined && !body.examples) schema.body = { ...body, examples: [requestExamples[key]] };
      const extra = (route.config as { errorStatuses?: number[] } | undefined)?.errorStatuses;
      for (const status of errorStatusesOf({
        method,
        url,
        hasBody: Boolean(original.body),
        hasQuery: Boolean(original.querystring),
        hasParams: Boolean(original.params) || url.includes(':'),
        extra,
      })) {
        responses[String(status)] ??= {
          ...errorJsonSchema,
          description: statusDescriptions[status] ?? 'Error',
          examples: [errorExample],
          ...(status === 429 ? { headers: { 'Retry-After': { type: 'integer', description: 'Segundos que esperar.' } } } : {}),
          ...(status === 401 ? { headers: { 'WWW-Authenticate': { type: 'string', description: 'Bearer realm="corto"' } } } : {}),
        };
      }
      if (bearer) {
        for (const response of Object.values(responses) as Array<Record<string, unknown>>) {
          response.headers = { ...rateLimitHeaders, ...(response.headers as object | undefined) };
        }
      }
      schema.response = responses;
      schema.tags = [tagOf(url)];
      if (!isPublicRoute(url)) schema.security = tokenOnly(url) ? [{ bearerAuth: [] }] : bearer ? [{ bearerAuth: [] }, { cookieAuth: [] }] : [{ cookieAuth: [] }];
      return { schema, url };
    },
    transformObject: jsonSchemaTransformObject,
  });
}
