import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHostedDomains, hostNameOf } from './hosted-domains';
import { openScratchDatabase, testDialects } from '../test/test-app';
import { migrateToLatest } from '../db/migrate';

describe('hostNameOf', () => {
  it('reads a Host header as its name: lower case, no port, no final dot; IP literals are no name', () => {
    expect(hostNameOf('Go.Empresa.ES')).toBe('go.empresa.es');
    expect(hostNameOf('go.empresa.es:8443')).toBe('go.empresa.es');
    expect(hostNameOf('go.empresa.es.')).toBe('go.empresa.es');
    expect(hostNameOf('GO.empresa.es.:443')).toBe('go.empresa.es');
    expect(hostNameOf('127.0.0.1:3000')).toBeUndefined();
    expect(hostNameOf('[::1]:3000')).toBeUndefined();
    expect(hostNameOf('::1')).toBeUndefined();
  });
});

describe.each(testDialects)('hosted domains (%s)', (dialect) => {
  let scratch: Awaited<ReturnType<typeof openScratchDatabase>>;
  beforeAll(async () => {
    scratch = await openScratchDatabase(dialect);
    await migrateToLatest(scratch.database.db);
    const db = scratch.database.db;
    const now = Date.now();
    const workspace = await db.insertInto('workspaces').values({ slug: 'equipo', name: 'Equipo', created_at: now }).returning('id').executeTakeFirstOrThrow();
    await db
      .insertInto('domains')
      .values([
        { workspace_id: workspace.id, hostname: 'go.empresa.es', verification_token: 'a', verified_at: now, created_at: now },
        { workspace_id: workspace.id, hostname: 'pendiente.empresa.es', verification_token: 'b', created_at: now },
      ])
      .execute();
  });
  afterAll(() => scratch.close());

  it('names the instance, a domain (verified or not) or nobody, for any spelling of the Host header', async () => {
    const hosted = createHostedDomains(scratch.database.db, 'https://corto.example');
    await hosted.load();
    for (const host of [undefined, '', 'corto.example', 'CORTO.example:443', 'corto.example.', 'localhost:3000', 'corto:3000', '127.0.0.1', '[::1]:80']) {
      expect(hosted.siteOf(host), String(host)).toBe('instance');
    }
    const go = hosted.siteOf('Go.Empresa.es.:8443');
    expect(go).toMatchObject({ hostname: 'go.empresa.es', verified: true, disabled: false });
    expect(hosted.siteOf('pendiente.empresa.es')).toMatchObject({ verified: false });
    expect(hosted.siteOf('otro.example')).toBe('unknown');
    expect(hosted.siteOf('go.empresa.es.otro.example')).toBe('unknown');
    expect(typeof go === 'object' && hosted.byId(go.id)?.keyPrefix).toBe(typeof go === 'object' ? `${go.id}/` : '');
  });

  it('learns a change at the next load, even for a Host it answered before', async () => {
    const hosted = createHostedDomains(scratch.database.db, 'https://corto.example');
    await hosted.load();
    expect(hosted.siteOf('nuevo.empresa.es')).toBe('unknown');
    const db = scratch.database.db;
    const workspace = await db.selectFrom('workspaces').select('id').executeTakeFirstOrThrow();
    await db.insertInto('domains').values({ workspace_id: workspace.id, hostname: 'nuevo.empresa.es', verification_token: 'c', created_at: Date.now() }).execute();
    await hosted.load();
    expect(hosted.siteOf('nuevo.empresa.es')).toMatchObject({ hostname: 'nuevo.empresa.es' });
  });
});
