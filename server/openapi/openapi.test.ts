import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRouteKeys } from '../reliability/registered-routes';
import { errorMessages } from '@common/messages';
import { IMPORT_MAX_BYTES, linkMessages } from '@common/links/link-messages';
import { createTestApp, type TestApp } from '../test/test-app';
import { multipart, registerUser, sameOrigin } from '../test/test-users';
import { documented } from './openapi';

type Operation = {
  security?: Array<Record<string, string[]>>;
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: Record<string, unknown> }> }>;
};
type Document = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, unknown> };
};

/** '/api/links/:id' as OpenAPI writes it: '/api/links/{id}'. */
const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

describe('the OpenAPI document', () => {
  let t: TestApp;
  let doc: Document;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    const response = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    doc = response.json() as Document;
  });
  afterAll(async () => t?.close());

  it('lists every registered /api route with its method, whoever added it', () => {
    // Walks Fastify's own route tree: a route added on any branch is checked once merged.
    const missing = apiRouteKeys(t.app)
      .map((key) => key.split(' ') as [string, string])
      .filter(([method, url]) => documented(url, method) && method !== 'HEAD' && method !== 'OPTIONS')
      .filter(([method, url]) => !doc.paths[openApiPath(url)]?.[method.toLowerCase()])
      .map(([method, url]) => `${method} ${url}`);
    expect(missing).toEqual([]);
    expect(Object.keys(doc.paths).length).toBeGreaterThanOrEqual(10);
    // And nothing that is not an /api route, nor the reference page's own files.
    expect(Object.keys(doc.paths).filter((path) => !path.startsWith('/api/') || path.startsWith('/api/docs'))).toEqual([]);
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(doc as unknown as Parameters<Validator["validate"]>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('has both security schemes, and a session or a token on every private operation', () => {
    expect(doc.components.securitySchemes).toMatchObject({
      bearerAuth: { type: 'http', scheme: 'bearer' },
      cookieAuth: { type: 'apiKey', in: 'cookie', name: 'corto_session' },
    });
    expect(doc.paths['/api/links']!.get!.security).toEqual([{ bearerAuth: [] }, { cookieAuth: [] }]);
    expect(doc.paths['/api/tokens']!.post!.security).toEqual([{ cookieAuth: [] }]);
    expect(doc.paths['/api/health']!.get!.security).toBeUndefined();
  });

  it('documents the error envelope on every error status, and examples', () => {
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const statuses = Object.keys(operation.responses);
        expect(statuses.some((status) => status.startsWith('2')), `${method} ${path} has a success`).toBe(true);
        for (const status of statuses.filter((one) => Number(one) >= 400)) {
          const schema = operation.responses[status]!.content?.['application/json']?.schema as { properties?: { error?: unknown } };
          expect(schema?.properties?.error, `${method} ${path} ${status}`).toBeDefined();
        }
      }
    }
    const create = doc.paths['/api/links']!.post!;
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(['201', '400', '401', '403', '409', '422', '429']));
    const exampleOf = (operation: Operation) => {
      const media = operation.requestBody!.content['application/json'] as { example?: unknown; examples?: unknown; schema: { examples?: unknown } };
      return media.example ?? media.examples ?? media.schema.examples;
    };
    expect(exampleOf(create)).toMatchObject({ longUrl: 'https://example.com/portfolio' });
    expect(exampleOf(doc.paths['/api/tokens']!.post!)).toBeDefined();
  });

  it('documents the 413 and 415 the import answers, in the Spanish envelope, and answers them', async () => {
    const responses = doc.paths['/api/links/import']!.post!.responses as Record<string, { description?: string; content?: Record<string, { schema?: { properties?: { error?: unknown } } }> }>;
    expect(responses['413']?.description).toBe(errorMessages.payloadTooLarge);
    expect(responses['415']?.description).toBe(errorMessages.unsupportedMediaType);
    for (const status of ['413', '415']) expect(responses[status]?.content?.['application/json']?.schema?.properties?.error, status).toBeDefined();

    const { cookie } = await registerUser(t.app);
    const upload = (headers: Record<string, string>, payload: Buffer | string) =>
      t.app.inject({ method: 'POST', url: '/api/links/import', headers: { cookie, ...sameOrigin, ...headers }, payload });
    const big = await multipart({ file: { bytes: Buffer.alloc(IMPORT_MAX_BYTES + 1, 'a'), filename: 'links.csv', type: 'text/csv' } });
    const tooLarge = await upload(big.headers, big.payload);
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json().error).toMatchObject({ code: 'payload_too_large', message: linkMessages.importTooLarge });
    const wrongType = await upload({ 'content-type': 'text/csv' }, 'title,longUrl\n');
    expect(wrongType.statusCode).toBe(415);
    expect(wrongType.json().error.code).toBe('unsupported_media_type');
  });

  it('documents the 401 and 403 a public route answers to a bearer token', async () => {
    const statusesOf = (path: string, method = 'get') => Object.keys(doc.paths[path]![method]!.responses);
    // Where a token is checked, a wrong one is 401; elsewhere any token is refused with 403.
    for (const path of ['/api/health', '/api/openapi.json']) expect(statusesOf(path), path).toContain('401');
    for (const path of ['/api/health/ready', '/api/auth/session', '/api/signup']) expect(statusesOf(path), path).toContain('403');
    for (const [path, status] of [['/api/health', 401], ['/api/signup', 403]] as const) {
      const answer = await t.app.inject({ method: 'GET', url: path, headers: { authorization: `Bearer corto_${'x'.repeat(43)}` } });
      expect(answer.statusCode, path).toBe(status);
    }
  });
});
