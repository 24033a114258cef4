import { Ajv2020 } from 'ajv/dist/2020.js';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLinkAs } from '../links/links.test-support';
import { injectUntilFirstChunk } from '../test/inject-stream';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { registerUser, sameOrigin } from '../test/test-users';
import { bearer, createTokenAs } from '../tokens/tokens.test-support';
import { invalidBodies, invalidQueries, type JsonSchema, validValue } from './contract-cases';

// Contract tests generated from /api/openapi.json: for every operation a valid request and a set
// of invalid ones, each answer checked against the statuses and response schemas the document
// gives. Nothing here names a route: an operation added later is tested the same way.

type Media = { schema?: JsonSchema; example?: unknown };
type Operation = {
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{ in: string; name: string; required?: boolean; schema: JsonSchema }>;
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { content?: Record<string, Media> }>;
};
type Document = { paths: Record<string, Record<string, Operation>> };

const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });

describe.each(testDialects)('contract tests from the OpenAPI document on %s', (dialect) => {
  let t: TestApp;
  let doc: Document;
  let cookie: string;
  let secret: string;
  beforeAll(async () => {
    // No limit gets in the way of a few hundred requests.
    t = await createTestApp(dialect, { API_RATE_LIMIT: '0', LINKS_PER_HOUR: '0', AUTH_RATE_LIMIT_IP: '0', AUTH_RATE_LIMIT_EMAIL: '0' });
    doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as Document;
    cookie = (await registerUser(t.app)).cookie;
    secret = (await createTokenAs(t.app, cookie, { scope: 'write' })).secret;
  });
  afterAll(async () => t?.close());

  /** The credentials the operation documents: a token when it takes one, else the session. */
  function credentials(operation: Operation): Record<string, string> {
    const schemes = (operation.security ?? []).flatMap((requirement) => Object.keys(requirement));
    if (schemes.includes('bearerAuth')) return bearer(secret);
    if (schemes.includes('cookieAuth')) return { cookie, ...sameOrigin };
    return {};
  }

  /** A path with real ids: a fresh link or token of the caller, so a DELETE has something to delete. */
  async function concretePath(path: string): Promise<string> {
    let result = path;
    if (result.includes('{id}')) {
      const id = result.startsWith('/api/tokens')
        ? (await createTokenAs(t.app, cookie, { scope: 'read' })).token.id
        : (await createLinkAs(t.app, cookie, { longUrl: 'https://example.com/contrato' })).id;
      result = result.replace('{id}', String(id));
    }
    // A member's id is a number: a word there would be refused before the caller is asked for.
    return result.replace('{userId}', '1').replace(/\{[^}]+\}/g, 'ejemplo');
  }

  function check(label: string, operation: Operation, response: { statusCode: number; headers: Record<string, unknown>; body: string }) {
    const documented = Object.keys(operation.responses);
    expect(response.statusCode, `${label}: ${response.body.slice(0, 200)}`).toBeLessThan(500);
    expect(documented, `${label} answered an undocumented ${response.statusCode}: ${response.body.slice(0, 200)}`).toContain(String(response.statusCode));
    const schema = operation.responses[String(response.statusCode)]?.content?.['application/json']?.schema;
    if (schema && String(response.headers['content-type']).startsWith('application/json')) {
      const validate = ajv.compile(schema);
      const valid = validate(JSON.parse(response.body));
      expect(valid, `${label} ${response.statusCode} does not match its schema: ${ajv.errorsText(validate.errors)}`).toBe(true);
    }
  }

  it('answers every operation as documented, to valid and invalid requests alike', async () => {
    let requests = 0;
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const label = `${method.toUpperCase()} ${path}`;
        const send = async (extra: Partial<InjectOptions> & { path?: string }) => {
          requests += 1;
          const url = extra.path ?? (await concretePath(path));
          const options: InjectOptions = {
            method: method.toUpperCase() as InjectOptions['method'],
            url,
            headers: { ...credentials(operation), ...(extra.headers as Record<string, string> | undefined) },
            ...(extra.query ? { query: extra.query } : {}),
            ...(extra.payload !== undefined ? { payload: extra.payload } : {}),
          };
          // An answer that streams for as long as it is read (the live feed) is read up to its first event.
          return operation.responses['200']?.content?.['text/event-stream'] ? injectUntilFirstChunk(t.app, options) : t.app.inject(options);
        };

        const json = operation.requestBody?.content['application/json'];
        const bodySchema = json?.schema;
        const validBody = bodySchema ? ((json.example as Record<string, unknown> | undefined) ?? (validValue(bodySchema) as Record<string, unknown>)) : undefined;

        // The valid request.
        const valid = await send(validBody !== undefined ? { payload: validBody } : {});
        check(`${label} (valid)`, operation, valid);

        // Invalid bodies.
        if (bodySchema && validBody && typeof validBody === 'object') {
          for (const variant of invalidBodies(bodySchema, validBody)) {
            const response = await send({ payload: JSON.stringify(variant.body), headers: { 'content-type': 'application/json' } });
            check(`${label} (${variant.name})`, operation, response);
            if (variant.mustRefuse) expect(response.statusCode, `${label} accepted ${variant.name}`).toBeGreaterThanOrEqual(400);
          }
          // A body that is not JSON at all.
          const broken = await send({ payload: '{"sin cerrar', headers: { 'content-type': 'application/json' } });
          check(`${label} (broken JSON)`, operation, broken);
          expect(broken.statusCode).toBeGreaterThanOrEqual(400);
        }

        // Invalid query parameters.
        const queryParameters = (operation.parameters ?? []).filter((parameter) => parameter.in === 'query');
        for (const variant of invalidQueries(queryParameters)) {
          const response = await send({ query: variant.query });
          check(`${label} (${variant.name})`, operation, response);
          if (variant.mustRefuse) expect(response.statusCode, `${label} accepted ${variant.name}`).toBeGreaterThanOrEqual(400);
        }

        // Path parameters that name nothing.
        if (path.includes('{')) {
          for (const bad of ['abc', '99999999999', '-1']) {
            const response = await send({ path: path.replace(/\{[^}]+\}/g, bad) });
            check(`${label} (path ${bad})`, operation, response);
            expect(response.statusCode, `${label} with ${bad}`).toBeGreaterThanOrEqual(400);
          }
        }

        // Without credentials, a private operation is 401 (and documented as such).
        if (operation.security?.length) {
          const response = await t.app.inject({
            method: method.toUpperCase() as InjectOptions['method'],
            url: await concretePath(path),
            headers: sameOrigin,
            ...(validBody !== undefined ? { payload: validBody } : {}),
          });
          check(`${label} (anonymous)`, operation, response);
          // The body is checked before the caller (the API deadline, and so the session lookup, start
          // at preHandler), and a body generated from the schema is not always one the route takes
          // (a multipart upload, a code of a set-up that does not exist): then a 400 comes first.
          // The access matrix sends each route a truly valid request and wants 401.
          const refusals = operation.requestBody ? [400, 401] : [401];
          expect(refusals, `${label} (anonymous): ${response.statusCode}`).toContain(response.statusCode);
        }

        // A bearer token that names nothing, on every operation, public ones too: checked where a
        // token may go (401), refused elsewhere (403); either way documented.
        const forged = await send({ headers: { authorization: `Bearer corto_${'x'.repeat(43)}` }, ...(validBody !== undefined ? { payload: validBody } : {}) });
        check(`${label} (unknown token)`, operation, forged);
        expect([401, 403], `${label} (unknown token): ${forged.statusCode}`).toContain(forged.statusCode);

        if (['post', 'put', 'patch', 'delete'].includes(method)) {
          const write = (headers: Record<string, string>, payload: string | Buffer) =>
            t.app.inject({ method: method.toUpperCase() as InjectOptions['method'], url: path.replace(/\{[^}]+\}/g, '1'), headers, payload });
          // A write from another site, with the session's cookie: 403.
          const crossSite = await write({ cookie, 'sec-fetch-site': 'cross-site', 'content-type': 'application/json' }, JSON.stringify(validBody ?? {}));
          check(`${label} (cross-site)`, operation, crossSite);
          expect(crossSite.statusCode, `${label} (cross-site)`).toBe(403);
          // A body of a type the API does not read: 415, whether or not the route reads a body.
          const wrongType = await write({ cookie, ...sameOrigin, 'content-type': 'text/plain' }, 'hola');
          check(`${label} (text/plain)`, operation, wrongType);
          expect(wrongType.statusCode, `${label} (text/plain)`).toBe(415);
          // A body past the 1 MB limit: 413.
          const tooLarge = await write({ cookie, ...sameOrigin, 'content-type': 'application/json' }, JSON.stringify({ title: 'x'.repeat(1_100_000) }));
          check(`${label} (too large)`, operation, tooLarge);
          expect(tooLarge.statusCode, `${label} (too large)`).toBe(413);
        }
      }
    }
    expect(requests).toBeGreaterThan(50);
  }, 120_000);
});
