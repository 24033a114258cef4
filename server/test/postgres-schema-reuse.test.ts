import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestApp } from './test-app';
import { registerUser } from './test-users';

const currentSchema = async (t: Awaited<ReturnType<typeof createTestApp>>) =>
  (await sql<{ schema: string }>`select current_schema() as schema`.execute(t.database.db)).rows[0]!.schema;

describe.skipIf(!process.env.TEST_DATABASE_URL)('PostgreSQL test apps reusing a schema', () => {
  it('get the schema of the app before them with no row left and ids from 1 again', async () => {
    const first = await createTestApp('postgres');
    const { user } = await registerUser(first.app);
    const schema = await currentSchema(first);
    await first.close();

    const second = await createTestApp('postgres');
    try {
      expect(await currentSchema(second)).toBe(schema);
      const users = await second.database.db.selectFrom('users').select('id').execute();
      expect(users).toEqual([]);
      expect((await registerUser(second.app)).user.id).toBe(user.id);
    } finally {
      await second.close();
    }
  });

  it('never get a schema a test changed beyond its rows (a trigger added)', async () => {
    const first = await createTestApp('postgres');
    const schema = await currentSchema(first);
    await sql`create function refuse_all() returns trigger language plpgsql as $$ begin raise exception 'refused'; end $$`.execute(first.database.db);
    await sql`create trigger refuse_users before insert on users for each row execute function refuse_all()`.execute(first.database.db);
    await first.close();

    const second = await createTestApp('postgres');
    try {
      expect(await currentSchema(second)).not.toBe(schema);
      await registerUser(second.app);
      const left = await sql<{ n: number }>`select count(*)::int as n from pg_namespace where nspname = ${schema}`.execute(second.database.db);
      expect(left.rows[0]!.n).toBe(0);
    } finally {
      await second.close();
    }
  });
});
