import { mcpMessages } from '@common/mcp/mcp-messages';
import { mcpAnswerSchema, mcpMessageSchema } from '@common/mcp/mcp-schemas';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../app-context';
import { openDatabaseReader } from '../db/database-reader';
import { SEARCH_PAGE_CACHE_KIB } from '../db/sqlite-connection';
import { AppError } from '../http/app-error';
import { createCreationQuota } from '../links/creation-quota';
import { bearerChallenge, type TokenRouteConfig } from '../tokens/bearer-auth';
import { mcpServerFor } from './mcp-server';

// POST /api/mcp: the Model Context Protocol over Streamable HTTP, stateless (no session: each POST
// carries one JSON-RPC message and gets its answer as JSON), for assistants holding an API token.
// The request goes through the API's scope like any route (bearer auth and its rate limit, the
// deadline, no-store, the error envelope); the SDK's web-standard transport reads the body Fastify
// has already parsed and checked, and its Response is sent back through Fastify's reply.

/** Headers the SDK does not need to see: the credentials stay with Fastify. */
const WITHHELD = new Set(['authorization', 'cookie']);

/** The request as a web-standard Request for the SDK's transport (its body is passed already parsed). */
function webRequestOf(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (WITHHELD.has(name) || value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  // Answers are always JSON (enableJsonResponse), so a client that says nothing of what it accepts
  // (curl) is served as the protocol's clients, which accept JSON and event streams, are.
  headers.set('accept', 'application/json, text/event-stream');
  return new Request(new URL(request.url, `${request.protocol}://${request.host}`), { method: 'POST', headers });
}

export async function mcpRoutes(app: FastifyInstance, context: AppContext) {
  const reader = openDatabaseReader(context.database, app.log, 'mcp', { pageCacheKib: SEARCH_PAGE_CACHE_KIB });
  app.addHook('onClose', () => reader.close());
  const creationQuota = createCreationQuota(context.database.db, context.config.linksPerHour);
  const routes = app.withTypeProvider<ZodTypeProvider>();

  const config: TokenRouteConfig & { errorStatuses: number[] } = { tokenScopeCheckedByRoute: true, errorStatuses: [404, 409] };
  // 202: a notification (no answer expected), as Streamable HTTP says.
  const response = { 200: mcpAnswerSchema, 202: z.null().describe('Aceptado: era una notificación, sin respuesta') };
  routes.post('/api/mcp', { schema: { body: mcpMessageSchema, response }, config }, async (request, reply) => {
    // Only a token: the bearer hook has checked it (a wrong, expired or revoked one is 401 there).
    if (!request.apiToken) {
      bearerChallenge(reply);
      throw new AppError('unauthorized', mcpMessages.tokenRequired);
    }
    const server = mcpServerFor({ request, context, reader, creationQuota });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      const answer = await transport.handleRequest(webRequestOf(request), { parsedBody: request.body });
      // The SDK's refusals (not a message it knows, a protocol version it does not speak) are in
      // English and outside the API's envelope: said in Spanish, in it.
      if (answer.status >= 400) {
        request.log.info({ status: answer.status, sdk: (await answer.text()).slice(0, 300) }, 'MCP request refused by the SDK');
        throw new AppError('validation', mcpMessages.requestInvalid);
      }
      // No body at all (undefined), where the schema's null would be serialized as 'null'.
      if (answer.status === 202) return reply.status(202).send(undefined as unknown as null);
      // Sent as an object, so the answer goes through the route's schema like any other.
      return reply.status(200).send(mcpAnswerSchema.parse(await answer.json()));
    } finally {
      await server.close();
    }
  });

  // A stateless server has no event stream to open (GET) nor session to end (DELETE): the
  // protocol asks for 405, which the SDK's client takes as "no stream", not as a failure.
  const notAllowed = async () => {
    throw new AppError('method_not_allowed', mcpMessages.methodNotAllowed);
  };
  routes.get('/api/mcp', { config }, async (_request, reply) => {
    void reply.header('allow', 'POST');
    return notAllowed();
  });
  routes.delete('/api/mcp', { config }, async (_request, reply) => {
    void reply.header('allow', 'POST');
    return notAllowed();
  });
}
