import type { FastifyInstance } from 'fastify';
import type { TestApp } from '../test/test-app';
import { registerUser, sameOrigin } from '../test/test-users';

/** A signed-up account made admin (as `corto admin` does), with its session cookie. */
export async function registerAdmin(t: TestApp, overrides: { email?: string } = {}) {
  const admin = await registerUser(t.app, overrides);
  await t.database.db.updateTable('users').set({ role: 'admin' }).where('id', '=', admin.user.id).execute();
  return admin;
}

/** A cookie-authenticated call, with the same-origin header writes need. */
export function call(app: FastifyInstance, cookie: string | undefined, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: unknown) {
  return app.inject({
    method,
    url,
    headers: { ...(cookie ? { cookie } : {}), ...sameOrigin },
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
}
