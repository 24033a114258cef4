import { errorMessages } from '@common/messages';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { registerUser, sameOrigin } from '../test/test-users';
import { ABANDONED_CLAIM_MS, IDEMPOTENCY_KEY_TTL_MS, sweepExpiredKeys, withIdempotency } from './idempotency';

describe.each(testDialects)('Idempotency-Key on POST /api/links on %s', (dialect) => {
  let t: TestApp;
  let cookie: string;
  let userId: number;
  beforeEach(async () => {
    t = await createTestApp(dialect);
    ({ cookie, user: { id: userId } } = await registerUser(t.app));
  });
  afterEach(async () => t.close());

  const create = (key: string | undefined, payload: Record<string, unknown> = { title: 'Una vez', longUrl: 'https://example.com/una' }) =>
    t.app.inject({
      method: 'POST',
      url: '/api/links',
      headers: { cookie, ...sameOrigin, ...(key === undefined ? {} : { 'idempotency-key': key }) },
      payload,
    });
  const linkCount = async () => Number((await t.database.db.selectFrom('urls').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  it('answers a retry with the same key and body with the first answer, and creates nothing more', async () => {
    const first = await create('clave-1');
    expect(first.statusCode).toBe(201);
    const again = await create('clave-1');
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(await linkCount()).toBe(1);
    // Without a key, or with another one, each request is a creation of its own.
    expect((await create(undefined)).statusCode).toBe(201);
    expect((await create('clave-2')).statusCode).toBe(201);
    expect(await linkCount()).toBe(3);
  });

  it('refuses the same key with a different body: 422 in Spanish, nothing created', async () => {
    expect((await create('clave-x')).statusCode).toBe(201);
    const other = await create('clave-x', { title: 'Otra cosa', longUrl: 'https://example.com/otra' });
    expect(other.statusCode).toBe(422);
    expect(other.json()).toEqual({ error: { code: 'idempotency_key_reused', message: errorMessages.idempotencyKeyReused } });
    expect(await linkCount()).toBe(1);
  });

  it('keeps keys per user: another user may use the same key', async () => {
    expect((await create('compartida')).statusCode).toBe(201);
    const other = await registerUser(t.app);
    const theirs = await t.app.inject({
      method: 'POST',
      url: '/api/links',
      headers: { cookie: other.cookie, ...sameOrigin, 'idempotency-key': 'compartida' },
      payload: { title: 'Una vez', longUrl: 'https://example.com/una' },
    });
    expect(theirs.statusCode).toBe(201);
    expect(theirs.json().link.id).not.toBe((await create('compartida')).json().link.id);
  });

  it('frees the key when the creation is refused, so the fixed request can use it', async () => {
    await create(undefined, { title: 'a', longUrl: 'https://example.com/a', customUrl: 'ocupado' });
    const taken = await create('clave-alias', { title: 'b', longUrl: 'https://example.com/b', customUrl: 'ocupado' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error.code).toBe('conflict');
    const fixed = await create('clave-alias', { title: 'b', longUrl: 'https://example.com/b', customUrl: 'libre' });
    expect(fixed.statusCode).toBe(201);
  });

  it('refuses to replay a key whose link was deleted since: a Spanish 409, never a 201 with a link that is gone', async () => {
    const first = await create('clave-borrada');
    expect(first.statusCode).toBe(201);
    const { id } = first.json().link;
    const removed = await t.app.inject({ method: 'DELETE', url: `/api/links/${id}`, headers: { cookie, ...sameOrigin } });
    expect(removed.statusCode).toBe(204);
    for (let retry = 0; retry < 2; retry += 1) {
      const again = await create('clave-borrada');
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({ error: { code: 'idempotency_link_deleted', message: errorMessages.idempotencyLinkDeleted } });
    }
    // Nothing was made again; a new key creates it anew.
    expect(await linkCount()).toBe(0);
    expect((await create('clave-nueva')).statusCode).toBe(201);
  });

  it('refuses to replay a bulk creation one of whose links was deleted since (409), and replays it while all stand', async () => {
    const bulk = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/links/bulk',
        headers: { cookie, ...sameOrigin, 'idempotency-key': 'lote-1' },
        payload: { links: [{ title: 'Uno', longUrl: 'https://example.com/1' }, { title: 'Dos', longUrl: 'https://example.com/2' }, { title: '' }] },
      });
    const first = await bulk();
    expect(first.statusCode).toBe(200);
    const again = await bulk();
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    const second = first.json().results[1].link;
    expect((await t.app.inject({ method: 'DELETE', url: `/api/links/${second.id}`, headers: { cookie, ...sameOrigin } })).statusCode).toBe(204);
    const gone = await bulk();
    expect(gone.statusCode).toBe(409);
    expect(gone.json().error.code).toBe('idempotency_link_deleted');
    expect(await linkCount()).toBe(1);
  });

  it('checks the header: 1 to 255 visible ASCII characters, else a Spanish 400', async () => {
    for (const bad of ['', 'con espacio', 'ñandú', 'x'.repeat(256)]) {
      const response = await create(bad);
      expect(response.statusCode, JSON.stringify(bad)).toBe(400);
      expect(response.json()).toEqual({ error: { code: 'validation', message: errorMessages.idempotencyKeyInvalid } });
    }
    expect((await create('x'.repeat(255))).statusCode).toBe(201);
    expect((await create('550e8400-e29b-41d4-a716-446655440000')).statusCode).toBe(201);
    expect(await linkCount()).toBe(2);
  });

  it('never runs a second request while the first with its key is still running (409), then replays', async () => {
    const db = t.database.db;
    let finish: () => void = () => {};
    const held = new Promise<void>((resolve) => (finish = resolve));
    let runs = 0;
    const call = { userId, key: 'lenta', scope: 'prueba', body: { a: 1 } };
    const run = async () => {
      runs += 1;
      await held;
      return { statusCode: 201, body: { n: runs } };
    };
    const first = withIdempotency(db, call, run);
    // The first has claimed the key once its row is there.
    await expect.poll(async () => (await db.selectFrom('idempotency_keys').selectAll().execute()).length).toBe(1);
    await expect(withIdempotency(db, call, run)).rejects.toMatchObject({ code: 'idempotency_in_progress', statusCode: 409 });
    finish();
    expect(await first).toEqual({ statusCode: 201, body: { n: 1 }, replayed: false });
    expect(await withIdempotency(db, call, run)).toEqual({ statusCode: 201, body: { n: 1 }, replayed: true });
    expect(runs).toBe(1);
  });

  it('lets a key go after 24 hours, and takes over a claim abandoned by a request that died', async () => {
    const db = t.database.db;
    const start = Date.now();
    let clock = start;
    const now = () => clock;
    let runs = 0;
    const run = async () => ({ statusCode: 201, body: { n: (runs += 1) } });
    const call = { userId, key: 'vieja', scope: 'prueba', body: {}, now };
    await withIdempotency(db, call, run);
    clock = start + IDEMPOTENCY_KEY_TTL_MS - 1;
    expect((await withIdempotency(db, call, run)).replayed).toBe(true);
    clock = start + IDEMPOTENCY_KEY_TTL_MS;
    expect(await withIdempotency(db, call, run)).toEqual({ statusCode: 201, body: { n: 2 }, replayed: false });

    // A claim left unanswered (its server was killed mid-request).
    await db.insertInto('idempotency_keys').values({ user_id: userId, key: 'huerfana', request_hash: 'x', status_code: null, response_body: null, created_at: clock }).execute();
    const orphan = { userId, key: 'huerfana', scope: 'prueba', body: {}, now };
    // Another body, still recent: refused either way.
    await expect(withIdempotency(db, orphan, run)).rejects.toMatchObject({ code: 'idempotency_key_reused' });
    clock += ABANDONED_CLAIM_MS;
    expect((await withIdempotency(db, orphan, run)).replayed).toBe(false);
  });

  it('sweeps keys older than 24 hours out of the table', async () => {
    const db = t.database.db;
    const now = Date.now();
    await db
      .insertInto('idempotency_keys')
      .values([
        { user_id: userId, key: 'antigua', request_hash: 'h', status_code: 201, response_body: '{}', created_at: now - IDEMPOTENCY_KEY_TTL_MS - 1 },
        { user_id: userId, key: 'reciente', request_hash: 'h', status_code: 201, response_body: '{}', created_at: now - 1000 },
      ])
      .execute();
    expect(await sweepExpiredKeys(db, now, true)).toBe(1);
    expect((await db.selectFrom('idempotency_keys').select('key').execute()).map((row) => row.key)).toEqual(['reciente']);
  });
});
