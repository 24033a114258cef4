import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';

describe.each(testDialects)('GET /api/health on %s', (dialect) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp(dialect);
  });
  afterEach(async () => {
    await t.close();
  });

  it('answers 200 and names the database when the database answers', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', database: dialect });
  });

  it('answers 503 with a Spanish message when the database does not answer', async () => {
    await t.database.db.destroy();
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(503);
    expect(response.json().error.code).toBe('database_unavailable');
    expect(response.json().error.message).toMatch(/no está disponible/);
  });
});
