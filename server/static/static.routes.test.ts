import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { type DatabaseHandle, openDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrate';

describe('the built web app', () => {
  let app: FastifyInstance;
  let database: DatabaseHandle;

  beforeAll(async () => {
    const webDir = mkdtempSync(path.join(tmpdir(), 'corto-web-'));
    mkdirSync(path.join(webDir, 'assets'));
    writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><html lang="es"><title>Corto</title></html>');
    writeFileSync(path.join(webDir, 'assets', 'index-abc.js'), 'console.log(1)');
    const dataDir = mkdtempSync(path.join(tmpdir(), 'corto-static-'));
    database = openDatabase({ kind: 'sqlite', dataDir });
    // The app reads the operator's settings (blocked domains) as it is built.
    await migrateToLatest(database.db);
    app = await buildApp({ config: { ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), webDir }, database });
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('serves index.html at / without letting it be cached stale', async () => {
    const response = await app.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('lang="es"');
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  it('serves hashed assets as immutable', async () => {
    const response = await app.inject({ method: 'GET', url: '/assets/index-abc.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toContain('immutable');
  });

  it.each(['/auth', '/dashboard', '/link/42', '/auth?createNew=https%3A%2F%2Fexample.com'])(
    'answers the client route %s with the app shell',
    async (url) => {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.body).toContain('<title>Corto</title>');
    },
  );

  it('answers unknown API paths with the JSON error envelope, not the app shell', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/nothing' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: { code: 'not_found', message: 'No encontrado.' } });
  });

  it('does not answer a POST to a page with the app shell', async () => {
    const response = await app.inject({ method: 'POST', url: '/dashboard' });
    expect(response.statusCode).toBe(404);
  });
});
