import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { apiErrorSchema } from '@common/api-error';
import type { Link, LinkList } from '@common/links/link-schemas';
import { linkMessages } from '@common/links/link-messages';
import { mcpMessages } from '@common/mcp/mcp-messages';
import type { LinkStats } from '@common/stats/stats-schemas';
import { tokenMessages } from '@common/tokens/token-messages';
import { workspaceMessages } from '@common/workspaces/workspace-messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordVisits, visitFrom } from '../clicks/clicks.test-support';
import { agents } from '../redirect/redirect.test-support';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { registerUser, sameOrigin } from '../test/test-users';
import { createTokenAs } from '../tokens/tokens.test-support';
import { addMember, createWorkspaceAs, person } from '../workspaces/workspaces.test-support';

// The MCP endpoint driven as an assistant drives it: the SDK's own client, over real HTTP, with a
// token in the Authorization header.

const SPANISH = /[a-záéíóúñ]{3,}/i;

describe.each(testDialects)('POST /api/mcp on %s', (dialect) => {
  let t: TestApp;
  let base: URL;
  let cookie: string;
  let writeSecret: string;
  let readSecret: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    t = await createTestApp(dialect, { LINKS_PER_HOUR: '0' });
    base = new URL('/api/mcp', await t.app.listen({ port: 0, host: '127.0.0.1' }));
    cookie = (await registerUser(t.app, { name: 'Asistida', email: `asistida-${dialect}@corto.test` })).cookie;
    writeSecret = (await createTokenAs(t.app, cookie, { name: 'Asistente', scope: 'write' })).secret;
    readSecret = (await createTokenAs(t.app, cookie, { name: 'Solo lectura', scope: 'read' })).secret;
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await t?.close();
  });

  async function connect(secret: string): Promise<Client> {
    const client = new Client({ name: 'prueba', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(base, { requestInit: { headers: { authorization: `Bearer ${secret}` } } }));
    clients.push(client);
    return client;
  }

  const call = async (client: Client, name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  const textOf = (result: CallToolResult) => result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');

  it('lists its four tools, each with the JSON Schema of the route it mirrors', async () => {
    const client = await connect(readSecret);
    expect(client.getServerVersion()?.name).toBe('corto');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['create_link', 'find_links', 'link_stats', 'update_link']);
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    const create = byName.create_link!.inputSchema as unknown as { properties: Record<string, unknown>; required: string[]; additionalProperties: unknown };
    expect(create.required.sort()).toEqual(['longUrl', 'title']);
    expect(Object.keys(create.properties)).toEqual(expect.arrayContaining(['title', 'longUrl', 'customUrl', 'tags', 'domain', 'rules', 'variants', 'redirectType']));
    expect(create.additionalProperties).toBe(false);
    const update = byName.update_link!.inputSchema as { properties: Record<string, unknown>; required: string[] };
    expect(update.required).toEqual(['id']);
    expect(Object.keys(update.properties)).toEqual(expect.arrayContaining(['id', 'title', 'paused', 'expiresAt', 'maxClicks', 'password']));
    const find = byName.find_links!.inputSchema as { properties: Record<string, { enum?: string[] }> };
    expect(find.properties.status!.enum).toEqual(['active', 'paused', 'expired', 'disabled']);
    const stats = byName.link_stats!.inputSchema as { properties: Record<string, { enum?: string[] }> };
    expect(stats.properties.range!.enum).toEqual(['7d', '30d', '90d', 'all']);
    for (const tool of tools) expect(tool.description, tool.name).toMatch(SPANISH);
    expect(byName.find_links!.annotations?.readOnlyHint).toBe(true);
    expect(byName.create_link!.annotations?.readOnlyHint).toBe(false);
  });

  it('creates a link with a write token, finds it, edits it and reads its statistics after visits', async () => {
    const client = await connect(writeSecret);
    const created = await call(client, 'create_link', { title: 'Catálogo de otoño', longUrl: 'https://tienda.example/otono', customUrl: `otono-${dialect}`, tags: ['campaña'] });
    expect(created.isError, textOf(created)).toBeFalsy();
    const link = (created.structuredContent as { link: Link }).link;
    expect(link).toMatchObject({ title: 'Catálogo de otoño', customUrl: `otono-${dialect}`, tags: ['campaña'], workspace: expect.any(String) });
    expect(textOf(created)).toContain(link.shortLink);
    // It is a link like any other: the REST API and the redirect know it.
    const rest = await t.app.inject({ method: 'GET', url: `/api/links/${link.id}`, headers: { cookie } });
    expect(rest.json().link.shortLink).toBe(link.shortLink);

    const found = await call(client, 'find_links', { q: 'otoño', tag: 'Campaña' });
    expect(found.isError, textOf(found)).toBeFalsy();
    expect((found.structuredContent as LinkList).links.map((one) => one.id)).toEqual([link.id]);
    expect(textOf(found)).toContain(link.shortLink);
    const none = await call(client, 'find_links', { q: 'primavera' });
    expect((none.structuredContent as LinkList).links).toEqual([]);

    const edited = await call(client, 'update_link', { id: link.id, title: 'Catálogo de invierno', paused: true });
    expect(edited.isError, textOf(edited)).toBeFalsy();
    expect((edited.structuredContent as { link: Link }).link).toMatchObject({ id: link.id, title: 'Catálogo de invierno', paused: true, status: 'paused' });
    const row = await t.database.db.selectFrom('urls').select(['title', 'paused']).where('id', '=', link.id).executeTakeFirstOrThrow();
    expect(row.title).toBe('Catálogo de invierno');
    expect(Boolean(row.paused)).toBe(true);

    await recordVisits(t, [visitFrom(link.id, '203.0.113.7', agents.iphone), visitFrom(link.id, '203.0.113.8', agents.desktop)]);
    const stats = await call(client, 'link_stats', { id: link.id });
    expect(stats.isError, textOf(stats)).toBeFalsy();
    expect((stats.structuredContent as LinkStats).total).toBe(2);
    expect((stats.structuredContent as LinkStats).range).toBe('all');
    expect(textOf(stats)).toContain('2 clics');
    const week = await call(client, 'link_stats', { id: link.id, range: '7d' });
    expect((week.structuredContent as LinkStats).range).toBe('7d');
  });

  it('lets a read token find and read, and refuses it creating or editing, in Spanish and without an HTTP error', async () => {
    const writer = await connect(writeSecret);
    const mine = (await call(writer, 'create_link', { title: 'De lectura', longUrl: 'https://example.com/lectura' })).structuredContent as { link: Link };
    const reader = await connect(readSecret);
    expect((await call(reader, 'find_links', { q: 'De lectura' })).isError).toBeFalsy();
    expect((await call(reader, 'link_stats', { id: mine.link.id })).isError).toBeFalsy();
    const before = await t.database.db.selectFrom('urls').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();

    const create = await call(reader, 'create_link', { title: 'No debería', longUrl: 'https://example.com/no' });
    expect(create.isError).toBe(true);
    expect(textOf(create)).toBe(mcpMessages.readOnlyToken);
    expect(create.structuredContent).toEqual({ error: { code: 'insufficient_scope', message: mcpMessages.readOnlyToken } });
    const edit = await call(reader, 'update_link', { id: mine.link.id, title: 'Tampoco' });
    expect(edit.isError).toBe(true);
    expect(textOf(edit)).toBe(mcpMessages.readOnlyToken);

    const after = await t.database.db.selectFrom('urls').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    const row = await t.database.db.selectFrom('urls').select('title').where('id', '=', mine.link.id).executeTakeFirstOrThrow();
    expect(row.title).toBe('De lectura');
  });

  it("finds nothing of another workspace's: its link is not found, as one that does not exist", async () => {
    const stranger = await registerUser(t.app, { name: 'Ajena', email: `ajena-${dialect}@corto.test` });
    const theirs = await t.app.inject({
      method: 'POST',
      url: '/api/links',
      headers: { cookie: stranger.cookie, ...sameOrigin },
      payload: { title: 'Secreto ajeno', longUrl: 'https://ajena.example/secreto' },
    });
    const theirLink = theirs.json().link as Link;
    const client = await connect(writeSecret);

    for (const id of [theirLink.id, 987_654_321]) {
      for (const [name, args] of [
        ['link_stats', { id }],
        ['update_link', { id, title: 'Mío ahora' }],
      ] as const) {
        const result = await call(client, name, args);
        expect(result.isError, `${name} ${id}`).toBe(true);
        expect(textOf(result)).toBe(linkMessages.notFound);
        expect(result.structuredContent).toEqual({ error: { code: 'not_found', message: linkMessages.notFound } });
      }
    }
    const found = await call(client, 'find_links', { q: 'Secreto ajeno' });
    expect((found.structuredContent as LinkList).links).toEqual([]);
    const row = await t.database.db.selectFrom('urls').select('title').where('id', '=', theirLink.id).executeTakeFirstOrThrow();
    expect(row.title).toBe('Secreto ajeno');
  });

  it("acts in the token's team workspace with its creator's role there", async () => {
    const owner = await person(t.app, 'Dueña del equipo');
    const workspace = await createWorkspaceAs(t.app, owner.cookie, { name: `Equipo MCP ${dialect}` });
    const admin = await person(t.app, 'Admin del equipo');
    await addMember(t, workspace.id, admin.id, 'admin');
    const made = await t.app.inject({
      method: 'POST',
      url: `/api/tokens?workspace=${workspace.slug}`,
      headers: { cookie: admin.cookie, ...sameOrigin },
      payload: { name: 'Asistente del equipo', scope: 'write' },
    });
    expect(made.statusCode).toBe(201);
    const client = await connect(made.json().secret as string);
    const created = await call(client, 'create_link', { title: 'Del equipo', longUrl: 'https://equipo.example/' });
    expect((created.structuredContent as { link: Link }).link.workspace).toBe(workspace.slug);

    // Demoted to viewer: the write token no longer writes, and says why.
    await t.database.db.updateTable('workspace_members').set({ role: 'viewer' }).where('user_id', '=', admin.id).where('workspace_id', '=', workspace.id).execute();
    const refused = await call(client, 'create_link', { title: 'Ya no', longUrl: 'https://equipo.example/no' });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toBe(workspaceMessages.forbiddenRole);
    expect((await call(client, 'find_links', {})).isError).toBeFalsy();
  });

  it('refuses wrong arguments in Spanish, field by field, and an unknown tool', async () => {
    const client = await connect(writeSecret);
    const missing = await call(client, 'create_link', { longUrl: 'no es una url' });
    expect(missing.isError).toBe(true);
    const envelope = apiErrorSchema.parse(missing.structuredContent);
    expect(envelope.error.code).toBe('validation');
    expect(envelope.error.fields?.title).toEqual([linkMessages.titleRequired]);
    expect(envelope.error.fields?.longUrl?.length).toBeGreaterThan(0);
    expect(textOf(missing)).toContain(linkMessages.titleRequired);
    expect(textOf(missing)).toMatch(SPANISH);

    const unknownField = await call(client, 'create_link', { title: 'x', longUrl: 'https://example.com', clicks: 99 });
    expect(textOf(unknownField)).toContain('Campo no admitido: clicks');
    const badId = await call(client, 'update_link', { id: 'uno', title: 'x' });
    expect(apiErrorSchema.parse(badId.structuredContent).error.fields?.id).toEqual([mcpMessages.linkIdInvalid]);
    const badRange = await call(client, 'link_stats', { id: 1, range: 'siempre' });
    expect(badRange.isError).toBe(true);
    expect(textOf(badRange)).toMatch(SPANISH);
    const badLimit = await call(client, 'find_links', { limit: 5000 });
    expect(apiErrorSchema.parse(badLimit.structuredContent).error.fields?.limit).toEqual([linkMessages.limitInvalid]);
    const taken = await call(client, 'create_link', { title: 'Repetido', longUrl: 'https://example.com', customUrl: `otono-${dialect}` });
    expect(apiErrorSchema.parse(taken.structuredContent).error.code).toBe('conflict');

    const unknown = await call(client, 'delete_everything', {});
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toBe(mcpMessages.unknownTool('delete_everything'));
  });

  describe('over plain HTTP', () => {
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    const post = (headers: Record<string, string>, body: unknown = list) =>
      fetch(base, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(body) });

    it('answers a revoked token 401 in Spanish', async () => {
      const token = await createTokenAs(t.app, cookie, { name: 'Revocable', scope: 'write' });
      const client = await connect(token.secret);
      expect((await call(client, 'find_links', {})).isError).toBeFalsy();
      const revoke = await t.app.inject({ method: 'DELETE', url: `/api/tokens/${token.token.id}`, headers: { cookie, ...sameOrigin } });
      expect(revoke.statusCode).toBe(204);

      const response = await post({ authorization: `Bearer ${token.secret}` });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toContain('invalid_token');
      expect(apiErrorSchema.parse(await response.json()).error).toMatchObject({ code: 'unauthorized', message: tokenMessages.invalidToken });
      // The SDK's client sees the refusal too, in the same words.
      await expect(client.listTools()).rejects.toThrow(tokenMessages.invalidToken);
    });

    it('answers a session cookie without a token 401 in Spanish, and no credentials alike', async () => {
      for (const headers of [{ cookie, ...sameOrigin }, {}]) {
        const response = await post(headers);
        expect(response.status).toBe(401);
        expect(response.headers.get('www-authenticate')).toBe('Bearer realm="corto"');
        expect(apiErrorSchema.parse(await response.json()).error).toEqual({ code: 'unauthorized', message: mcpMessages.tokenRequired });
      }
    });

    it('answers JSON, not stored by any cache, and refuses what is no MCP message in Spanish', async () => {
      const auth = { authorization: `Bearer ${writeSecret}` };
      const listed = await post(auth);
      expect(listed.status).toBe(200);
      expect(listed.headers.get('content-type')).toContain('application/json');
      expect(listed.headers.get('cache-control')).toContain('no-store');
      expect(((await listed.json()) as { result: { tools: unknown[] } }).result.tools).toHaveLength(4);

      // A notification expects no answer: 202, nothing in the body.
      const notification = await post(auth, { jsonrpc: '2.0', method: 'notifications/initialized' });
      expect(notification.status).toBe(202);
      expect(await notification.text()).toBe('');

      const notJsonRpc = await post(auth, { hola: 'mundo' });
      expect(notJsonRpc.status).toBe(400);
      expect(apiErrorSchema.parse(await notJsonRpc.json()).error.code).toBe('validation');
      const notMcp = await post(auth, { jsonrpc: '2.0', result: 'suelto' });
      expect(notMcp.status).toBe(400);
      expect(apiErrorSchema.parse(await notMcp.json()).error).toEqual({ code: 'validation', message: mcpMessages.requestInvalid });
      const broken = await fetch(base, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{"jsonrpc":' });
      expect(broken.status).toBe(400);
      expect(apiErrorSchema.parse(await broken.json()).error.message).toMatch(SPANISH);
    });

    it('refuses GET and DELETE with 405: the server keeps no sessions', async () => {
      for (const method of ['GET', 'DELETE']) {
        const response = await fetch(base, { method, headers: { authorization: `Bearer ${writeSecret}`, accept: 'text/event-stream' } });
        expect(response.status, method).toBe(405);
        expect(response.headers.get('allow')).toBe('POST');
        expect(apiErrorSchema.parse(await response.json()).error).toEqual({ code: 'method_not_allowed', message: mcpMessages.methodNotAllowed });
      }
    });
  });
});
