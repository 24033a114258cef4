import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { postgresSchema } from '../test/postgres-schema';
import { testDialects } from '../test/test-app';
import { openDatabase } from './database';

describe.runIf(testDialects.includes('postgres'))('a PostgreSQL connection of Corto', () => {
  const setting = (name: string) => sql<{ value: string }>`select current_setting(${name}) as value`;

  it('plans without parallel workers, in its schema, and keeps the options its URL gives', async () => {
    const { schema, drop } = await postgresSchema(process.env.TEST_DATABASE_URL!);
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.searchParams.set('options', '-c statement_timeout=12345');
    const handle = openDatabase({ kind: 'postgres', url: url.toString(), schema });
    try {
      const read = async (name: string) => (await setting(name).execute(handle.db)).rows[0]!.value;
      expect(await read('max_parallel_workers_per_gather')).toBe('0');
      expect(await read('search_path')).toBe(schema);
      expect(await read('statement_timeout')).toBe('12345ms');
    } finally {
      await handle.close();
      await drop();
    }
  });
});
