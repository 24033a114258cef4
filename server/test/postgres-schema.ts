import { randomUUID } from 'node:crypto';
import pg from 'pg';

// Every PostgreSQL test works in a schema of its own on the shared server, dropped afterwards.

async function adminQuery(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** `url` with its connections' search_path set to `schema`, optionally through another host:port (a relay). */
export function schemaUrl(url: string, schema: string, via?: { host: string; port: number }): string {
  const address = new URL(url);
  if (via) {
    address.hostname = via.host;
    address.port = String(via.port);
  }
  address.searchParams.set('options', `-c search_path=${schema}`);
  return address.toString();
}

/**
 * pg_trgm (migration 0015) in the public schema, as an install would have it. Else the first suite
 * to migrate would create it in its own schema, and dropping that schema would take the extension,
 * and every other suite's trigram indexes, with it. Suites starting together may race to create it.
 */
export async function ensurePgTrgm(url: string): Promise<void> {
  try {
    await adminQuery(url, 'create extension if not exists pg_trgm schema public');
  } catch (error) {
    if ((error as { code?: string }).code !== '23505') throw error; // created meanwhile by another suite
  }
}

/** Removes a test's schema with everything in it. */
export const dropPostgresSchema = (url: string, schema: string) => adminQuery(url, `drop schema ${schema} cascade`);

/** A new schema on the server at `url`; drop() removes it with everything in it. */
export async function postgresSchema(url: string) {
  await ensurePgTrgm(url);
  const schema = `test_${randomUUID().replaceAll('-', '')}`;
  await adminQuery(url, `create schema ${schema}`);
  return { schema, urlWithSchema: schemaUrl(url, schema), drop: () => dropPostgresSchema(url, schema) };
}
