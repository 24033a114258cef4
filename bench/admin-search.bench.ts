// The operator's searches over a big install: GET /api/admin/links over 100,000 links and
// GET /api/admin/users over 10,000 users, for a common term, a rare one, a destination domain and a
// miss. Medians (target: 50 ms or less), and the ratio against GET /api/health measured in the same
// run. SQLite always; PostgreSQL too with BENCH_DATABASE_URL (or TEST_DATABASE_URL).
import { sql } from 'kysely';
import { createTestApp, testDialects } from '../server/test/test-app';
import { withTitleSearch } from '../server/links/links.queries';
import { registerUser } from '../server/test/test-users';

const USERS = Number(process.env.BENCH_USERS ?? 10_000);
const LINKS = Number(process.env.BENCH_LINKS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const BATCH = 500;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const words = ['oferta', 'campaña', 'boletín', 'evento', 'informe', 'descarga', 'registro', 'tienda'];

if (process.env.BENCH_DATABASE_URL) process.env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL;
for (const dialect of testDialects) {
  const t = await createTestApp(dialect, { AUTH_RATE_LIMIT_IP: '0' });
  const admin = await registerUser(t.app);
  await t.database.db.updateTable('users').set({ role: 'admin' }).where('id', '=', admin.user.id).execute();
  const { db } = t.database;
  const now = Date.now();
  for (let start = 0; start < USERS; start += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, USERS - start) }, (_, i) => ({
      email: `persona-${start + i}@dominio-${(start + i) % 97}.test`,
      name: `Persona ${start + i}`,
      password_hash: 'x',
      profile_image: 'x',
      created_at: now,
      disabled_at: null,
    }));
    await db.insertInto('users').values(rows).execute();
  }
  const ids = (await db.selectFrom('users').select('id').execute()).map((row) => Number(row.id));
  // Each user's personal workspace, as sign-up makes it (the admin's exists already): their links go there.
  const withWorkspace = new Set((await db.selectFrom('workspaces').select('personal_user_id').execute()).map((row) => Number(row.personal_user_id)));
  const needing = ids.filter((id) => !withWorkspace.has(id));
  for (let start = 0; start < needing.length; start += BATCH) {
    const rows = needing.slice(start, start + BATCH).map((id) => ({ slug: `persona-${id}`, name: `Persona ${id}`, personal_user_id: id, created_at: now }));
    await db.insertInto('workspaces').values(rows).execute();
  }
  const workspaceOf = new Map(
    (await db.selectFrom('workspaces').select(['id', 'personal_user_id']).execute()).map((row) => [Number(row.personal_user_id), Number(row.id)]),
  );
  for (let start = 0; start < LINKS; start += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, LINKS - start) }, (_, i) => {
      const n = start + i;
      return withTitleSearch({
        workspace_id: workspaceOf.get(ids[n % ids.length]!)!,
        user_id: ids[n % ids.length]!,
        title: `${words[n % words.length]} número ${n}`,
        original_url: `https://sitio-${n % 1000}.example/pagina/${n}`,
        short_url: `b${n.toString(36)}`,
        custom_url: null,
        custom_url_key: null,
        qr: 'x',
        created_at: now + n,
        updated_at: now + n,
        expires_at: null,
        max_clicks: null,
        password_hash: null,
        disabled_at: null,
        disabled_reason: null,
      });
    });
    await db.insertInto('urls').values(rows).execute();
  }
  // PostgreSQL: as autovacuum would have by now (its planner's statistics); SQLite has no such thing.
  if (dialect === 'postgres') await sql`vacuum analyze urls, users`.execute(db);

  const time = async (url: string) => {
    const samples: number[] = [];
    for (let i = 0; i < RUNS + 3; i++) {
      const started = performance.now();
      const response = await t.app.inject({ method: 'GET', url, headers: { cookie: admin.cookie } });
      if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
      if (i >= 3) samples.push(performance.now() - started);
    }
    return median(samples);
  };
  const baseline = await time('/api/health');
  console.log(`admin search on ${dialect}: ${LINKS} links, ${USERS} users, median of ${RUNS} (health ${baseline.toFixed(2)} ms)`);
  const cases: [string, string][] = [
    ['links, no term (newest page)', '/api/admin/links'],
    ['links, common title word', '/api/admin/links?q=oferta'],
    ['links, rare title', `/api/admin/links?q=${encodeURIComponent('número 12345')}`],
    ['links, destination domain', '/api/admin/links?q=sitio-777.example'],
    ['links, short address', '/api/admin/links?q=http%3A%2F%2Flocalhost%3A3000%2Fb2n9c'],
    ['links, miss (whole table)', '/api/admin/links?q=nadaquecoincida'],
    ['users, no term', '/api/admin/users'],
    ['users, e-mail domain', '/api/admin/users?q=dominio-42.test'],
    ['users, miss (whole table)', '/api/admin/users?q=nadaquecoincida'],
  ];
  for (const [label, url] of cases) {
    const ms = await time(url);
    console.log(`  ${label.padEnd(32)} ${ms.toFixed(2).padStart(8)} ms  x${(ms / baseline).toFixed(1)} health  ${ms <= 50 ? 'ok' : 'OVER 50 ms'}`);
  }
  await t.close();
}
