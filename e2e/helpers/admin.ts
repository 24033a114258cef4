import { execFileSync } from 'node:child_process';
import type { Page } from '@playwright/test';
import { sameOrigin, signUpViaApi } from './accounts';

/** The install's admin for the e2e run, made so from the shell as an operator does (`corto admin`). */
export const ADMIN = 'jefa-e2e@corto.test';

/** Signs the page in as the admin, creating the account the first time. */
export async function signInAsAdmin(page: Page): Promise<void> {
  const existing = await page.request.post('/api/auth/login', { headers: sameOrigin, data: { email: ADMIN, password: 'secreto-e2e' } });
  if (existing.status() === 200) return;
  await signUpViaApi(page, { name: 'Jefa', email: ADMIN });
  execFileSync(process.execPath, ['dist/server/corto.js', 'admin', ADMIN], {
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR ?? '', DATABASE_URL: '', LOG_LEVEL: 'silent' },
  });
}
