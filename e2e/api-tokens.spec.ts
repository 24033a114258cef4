import { request as playwrightRequest } from '@playwright/test';
import { expect, test } from './fixtures';
import { signUpViaApi } from './helpers/accounts';

// The 'Tokens de API' screen, reached from the avatar menu: a token made there works from a
// program with no cookie, and stops at once when revoked. And the API reference page.

test('creates a token shown once, uses it from a program, and revokes it after a confirmation', async ({ page, baseURL, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signUpViaApi(page, { name: 'Ana Programadora' });
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Menú de Ana Programadora' }).click();
  await page.getByRole('menuitem', { name: 'Tokens de API' }).click();
  await expect(page).toHaveURL(/\/cuenta\/tokens$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Tokens de API' })).toBeVisible();
  await expect(page.getByText('Aún no tienes tokens.')).toBeVisible();

  // A name is required, in Spanish.
  await page.getByRole('button', { name: 'Crear token' }).click();
  await expect(page.getByText('El nombre es obligatorio')).toBeVisible();

  await page.getByLabel('Nombre').fill('ShareX');
  await page.getByLabel(/Lectura y escritura/).check();
  await page.getByRole('button', { name: 'Crear token' }).click();
  const secretBox = page.getByLabel('Token secreto');
  await expect(secretBox).toHaveText(/^corto_[A-Za-z0-9_-]{43}$/);
  const secret = (await secretBox.textContent())!;
  await page.getByRole('button', { name: 'Copiar token' }).click();
  await expect(page.getByRole('button', { name: 'Token copiado' })).toBeVisible();
  expect(await page.evaluate('navigator.clipboard.readText()')).toBe(secret);

  // Listed by its prefix, never its secret.
  const list = page.getByRole('list', { name: 'Tus tokens' });
  await expect(list.getByText('ShareX')).toBeVisible();
  await expect(list.getByText(`${secret.slice(0, 12)}…`)).toBeVisible();
  await expect(list.getByText('Lectura y escritura')).toBeVisible();
  await page.getByRole('button', { name: 'Ya lo he guardado' }).click();
  await expect(secretBox).toHaveCount(0);
  await expect(page.getByText(secret)).toHaveCount(0);

  // A program, with no cookie: the token creates a link.
  const program = await playwrightRequest.newContext({ baseURL });
  const created = await program.post('/api/links', {
    headers: { authorization: `Bearer ${secret}` },
    data: { title: 'Desde ShareX', longUrl: 'https://example.com/captura.png' },
  });
  expect(created.status(), await created.text()).toBe(201);
  expect(created.headers()['ratelimit-limit']).toBe('600');

  await page.getByRole('button', { name: 'Revocar ShareX' }).click();
  // Revoking cannot be undone: it asks first, with Cancelar focused.
  const confirmRevoke = page.getByRole('dialog', { name: '¿Revocar el token «ShareX»?' });
  await expect(confirmRevoke.getByRole('button', { name: 'Cancelar' })).toBeFocused();
  await confirmRevoke.getByRole('button', { name: 'Revocar' }).click();
  await expect(page.getByText('Aún no tienes tokens.')).toBeVisible();
  // Success looks like success: a green notice, not a red alert.
  const notice = page.getByRole('status').filter({ hasText: 'Token «ShareX» revocado' });
  await expect(notice).toHaveAttribute('data-tone', 'success');
  await expect(notice).toHaveCSS('background-color', /rgb\(2, 44, 34\)|oklch\(0\.262 0\.051 172\.552\)/);
  const after = await program.get('/api/links', { headers: { authorization: `Bearer ${secret}` } });
  expect(after.status()).toBe(401);
  expect(after.headers()['www-authenticate']).toMatch(/^Bearer/);
  await program.dispose();
});

test('serves the API reference itself, within the CSP, with no console errors', async ({ page }) => {
  const response = await page.goto('/api/docs/');
  expect(response?.status()).toBe(200);
  expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
  await expect(page).toHaveTitle('API de Corto: referencia');
  await expect(page.getByRole('heading', { name: /API de Corto/ })).toBeVisible();
  // Operations come from /api/openapi.json, described in Spanish.
  await expect(page.getByText('/api/links/{id}/stats').first()).toBeVisible();
  await expect(page.getByText('Tokens de API').first()).toBeVisible();
  expect(await page.locator('html').getAttribute('lang')).toBe('es');
});
