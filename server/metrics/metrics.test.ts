import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLinkAs } from '../links/links.test-support';
import { startTcpProxy, type TcpProxy } from '../reliability/tcp-proxy';
import { testRedisAddress } from '../test/redis';
import { startTestS3, type TestS3 } from '../test/s3-server';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { registerUser } from '../test/test-users';

/** The value of one sample of the Prometheus text, e.g. value(text, 'corto_redirects_total'). */
function value(text: string, sample: string): number {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${sample} `));
  return line === undefined ? Number.NaN : Number(line.slice(sample.length + 1));
}

describe.each(testDialects)('GET /metrics on %s', (dialect) => {
  let t: TestApp;
  afterEach(async () => t.close());

  it('counts every redirect (the cache\'s part apart), cache hits and misses, clicks queued and written, and answers per route and status', async () => {
    t = await createTestApp(dialect);
    const { cookie } = await registerUser(t.app);
    const link = await createLinkAs(t.app, cookie);
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    // The first visit fills the cache (Fastify's route); the next 64 are the fast path's.
    for (let i = 0; i < 65; i += 1) {
      const response = await fetch(`${base}/${link.shortCode}`, { redirect: 'manual', headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0' } });
      expect(response.status).toBe(302);
    }
    expect((await fetch(`${base}/nohay1`)).status).toBe(404);
    await t.app.appContext.clickWriter.flush();

    const response = await fetch(`${base}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    // The first visit was answered by the route (the link read from the database): counted too.
    expect(value(text, 'corto_redirects_total')).toBe(65);
    expect(value(text, 'corto_redirects_cached_total')).toBe(64);
    expect(value(text, 'corto_link_cache_hits_total')).toBe(64);
    expect(value(text, 'corto_link_cache_misses_total')).toBe(2);
    expect(value(text, 'corto_redirect_duration_seconds_count')).toBe(2);
    expect(value(text, 'corto_clicks_queued_total')).toBe(65);
    expect(value(text, 'corto_clicks_written_total')).toBe(65);
    expect(value(text, 'corto_clicks_shed_total')).toBe(0);
    expect(value(text, 'corto_clicks_waiting')).toBe(0);
    expect(value(text, 'corto_click_writer_lag_seconds')).toBe(0);
    expect(value(text, 'corto_click_writer_batches_total')).toBeGreaterThanOrEqual(1);
    expect(value(text, 'corto_click_writer_batch_seconds_total')).toBeGreaterThan(0);
    expect(value(text, 'corto_http_responses_total{method="POST",route="/api/links",status="201"}')).toBe(1);
    expect(value(text, 'corto_http_responses_total{method="GET",route="/:code",status="302"}')).toBe(1);
    expect(value(text, 'corto_http_responses_total{method="GET",route="/:code",status="404"}')).toBe(1);
    expect(text).toContain('nodejs_eventloop_lag_p99_seconds');
    // API latency per route; the redirect route is not the API's.
    expect(value(text, 'corto_api_request_duration_seconds_count{method="POST",route="/api/links"}')).toBe(1);
    expect(value(text, 'corto_api_request_duration_seconds_bucket{le="10",method="POST",route="/api/links"}')).toBe(1);
    expect(text).not.toMatch(/corto_api_request_duration_seconds_count\{[^}]*route="\/:code"/);
    expect(text).toMatch(/^corto_build_info\{version="\d+\.\d+\.\d+[^"]*",node="v\d+\.\d+\.\d+"\} 1$/m);
    expect(value(text, 'corto_dependency_up{dependency="database"}')).toBe(1);
    expect(value(text, 'corto_dependency_up{dependency="storage"}')).toBe(1);
    expect(text).not.toContain('corto_dependency_up{dependency="redis"}');
    if (dialect === 'postgres') expect(value(text, 'corto_db_pool_connections')).toBeGreaterThanOrEqual(1);
    else expect(text).not.toContain('corto_db_pool_connections');
  });

  it('asks for the bearer token when METRICS_TOKEN is set', async () => {
    t = await createTestApp(dialect, { METRICS_TOKEN: 'un-token-de-metricas-1234' });
    const none = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer');
    expect(none.json().error.message).toBe('Tienes que iniciar sesión.');
    expect((await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer otro-token-cualquiera-99' } })).statusCode).toBe(401);
    const given = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer un-token-de-metricas-1234' } });
    expect(given.statusCode).toBe(200);
    expect(given.body).toContain('corto_redirects_total');
  });
});

describe('GET /api/health/ready', () => {
  let s3: TestS3;
  let s3Relay: TcpProxy;
  let redisRelay: TcpProxy;
  let t: TestApp;
  beforeAll(async () => {
    s3 = await startTestS3();
    s3Relay = await startTcpProxy({ host: '127.0.0.1', port: s3.port });
    redisRelay = await startTcpProxy(testRedisAddress);
    t = await createTestApp('sqlite', { ...s3.env(`http://127.0.0.1:${s3Relay.port}`), REDIS_URL: `redis://127.0.0.1:${redisRelay.port}` });
  });
  afterAll(async () => {
    await t.close();
    await Promise.all([s3Relay.close(), redisRelay.close()]);
    await s3.close();
  });

  it('is ready while the database, the store and Redis answer, and says which does not', async () => {
    const liveness = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(liveness.statusCode).toBe(200);
    const ready = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ok', checks: { database: 'ok', storage: 'ok', redis: 'ok' } });

    await s3Relay.cut();
    const noStore = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(noStore.statusCode).toBe(503);
    expect(noStore.json().error).toEqual({ code: 'not_ready', message: 'El servicio todavía no está listo. Inténtalo de nuevo en unos segundos.' });
    expect(noStore.json().checks).toMatchObject({ database: 'ok', redis: 'ok' });
    expect(noStore.json().checks.storage).not.toBe('ok');
    // Liveness does not depend on the store.
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    await s3Relay.restore();

    await redisRelay.cut();
    const noRedis = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(noRedis.statusCode).toBe(503);
    expect(noRedis.json().checks).toMatchObject({ database: 'ok', storage: 'ok' });
    expect(noRedis.json().checks.redis).not.toBe('ok');
    await redisRelay.restore();
  });

  it('reports in /metrics which dependency answers: database, store and Redis', async () => {
    const scrape = async () => (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    let text = await scrape();
    for (const dependency of ['database', 'storage', 'redis']) expect(value(text, `corto_dependency_up{dependency="${dependency}"}`), dependency).toBe(1);
    await redisRelay.cut();
    await s3Relay.cut();
    text = await scrape();
    expect(value(text, 'corto_dependency_up{dependency="redis"}')).toBe(0);
    expect(value(text, 'corto_dependency_up{dependency="storage"}')).toBe(0);
    expect(value(text, 'corto_dependency_up{dependency="database"}')).toBe(1);
    await Promise.all([redisRelay.restore(), s3Relay.restore()]);
  });
});
