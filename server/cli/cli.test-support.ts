import { spawn } from 'node:child_process';
import type { Link } from '@common/links/link-schemas';
import type { User } from '@common/auth/auth-schemas';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { type Config, loadConfig } from '../config';
import { type DatabaseHandle, openDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import { entryArgs } from '../test/server-build';
import { registerUser, sameOrigin } from '../test/test-users';

/** `npm run corto -- ...args` (the CLI's build), in a process of its own, with `env` on top of the test's. */
export function runCli(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [...entryArgs('corto'), ...args], { env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'silent', ...env } });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, output })));
}

export interface Install {
  app: FastifyInstance;
  database: DatabaseHandle;
  config: Config;
  close(): Promise<void>;
}

/** A server as `npm start` runs it, on `dataDir` (or PostgreSQL at `databaseUrl`), migrated. */
export async function openServedInstall(dataDir: string, databaseUrl?: string): Promise<Install> {
  const database = openDatabase(databaseUrl ? { kind: 'postgres', url: databaseUrl } : { kind: 'sqlite', dataDir });
  await migrateToLatest(database.db);
  const config: Config = {
    ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', REDIRECT_MISS_LIMIT: '0', LINKS_PER_HOUR: '0', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) }),
    webDir: undefined,
  };
  const app = await buildApp({ config, database });
  await app.appContext.clickWriter.ready();
  return {
    app,
    database,
    config,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

/** A user (with a real picture) and `count` links of theirs, through the API. */
export async function seedLinks(app: FastifyInstance, count: number): Promise<{ user: User; cookie: string; links: Link[] }> {
  const { user, cookie } = await registerUser(app);
  const links: Link[] = [];
  for (let i = 0; i < count; i++) {
    const response = await app.inject({
      method: 'POST',
      url: '/api/links',
      headers: { cookie, ...sameOrigin },
      payload: { title: `Enlace ${i}`, longUrl: `https://example.com/destino/${i}?n=${i}` },
    });
    if (response.statusCode !== 201) throw new Error(`seedLinks: ${response.statusCode} ${response.body}`);
    links.push((response.json() as { link: Link }).link);
  }
  return { user, cookie, links };
}

/** The path part of a stored object's public address (/storage/...). */
export const storagePath = (address: string) => new URL(address, 'http://corto.test').pathname;
