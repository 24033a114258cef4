import type { Page } from '@playwright/test';
import { networkMessages } from '../common/messages';
import { expect, test } from './fixtures';
import { signUpViaApi, sameOrigin } from './helpers/accounts';

// A server that cannot be reached, or that fails, is told to the user in Spanish wherever it
// happens: never the browser's 'Failed to fetch', never a click that seems to do nothing.

const nav = (page: Page) => page.getByRole('navigation', { name: 'Principal' });
const isLinkList = (url: URL) => url.pathname === '/api/links';
const offline = /ERR_INTERNET_DISCONNECTED/;

test('with /api/links unreachable the dashboard says so in Spanish, not "Failed to fetch"', async ({ page, consoleErrors }) => {
  consoleErrors.allow(offline);
  await signUpViaApi(page, { name: 'Sin Red' });
  await page.route(isLinkList, (route) => route.abort('internetdisconnected'));
  await page.goto('/dashboard');
  // After the query's own retries (about 3 s).
  await expect(page.getByRole('alert')).toHaveText(networkMessages.unreachable, { timeout: 15_000 });
  await expect(page.getByText('Failed to fetch')).toHaveCount(0);
});

test('signing in with the server unreachable says so in Spanish', async ({ page, consoleErrors }) => {
  consoleErrors.allow(offline);
  await page.goto('/auth');
  await page.route('**/api/auth/login', (route) => route.abort('internetdisconnected'));
  await page.getByLabel('Email').fill('ana@corto.test');
  await page.getByLabel('Contraseña').fill('secreto-ana');
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
  await expect(page.getByRole('alert')).toHaveText(networkMessages.unreachable);
});

test('a failed logout tells the user, who stays signed in', async ({ page, consoleErrors }) => {
  consoleErrors.allow(offline);
  consoleErrors.allow(/Failed to log out/);
  await signUpViaApi(page, { name: 'Sigue Dentro' });
  await page.goto('/dashboard');
  await page.route('**/api/auth/logout', (route) => route.abort('internetdisconnected'));
  await nav(page).getByRole('button', { name: 'Menú de Sigue Dentro' }).click();
  await page.getByRole('menuitem', { name: 'Cerrar sesión' }).click();
  const notice = page.getByRole('region', { name: 'Avisos' }).getByRole('alert');
  await expect(notice).toHaveText(`No se ha cerrado la sesión. ${networkMessages.unreachable}`);
  await expect(nav(page).getByRole('button', { name: 'Menú de Sigue Dentro' })).toBeVisible();
  await expect(page).toHaveURL((url) => url.pathname === '/dashboard');
  await notice.getByRole('button', { name: 'Cerrar aviso' }).click();
  await expect(notice).toHaveCount(0);
});

test('a failed delete tells the user why, and the link stays', async ({ page, consoleErrors }) => {
  consoleErrors.allow(/status of 500|Failed to delete URL/);
  await signUpViaApi(page, { name: 'Borra Mal' });
  expect((await page.request.post('/api/links', { headers: sameOrigin, data: { title: 'Se queda', longUrl: 'https://ejemplo.com/queda' } })).status()).toBe(201);
  await page.route('**/api/links/*', (route) =>
    route.request().method() === 'DELETE'
      ? route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":{"code":"internal","message":"Ha ocurrido un error inesperado. Inténtalo de nuevo."}}' })
      : route.fallback(),
  );
  await page.goto('/dashboard');
  const card = page.getByRole('list', { name: 'Links' }).getByRole('listitem').filter({ hasText: 'Se queda' });
  await card.getByRole('button', { name: 'Eliminar link' }).click();
  await page.getByRole('dialog', { name: '¿Eliminar este link?' }).getByRole('button', { name: 'Eliminar' }).click();
  await expect(page.getByRole('region', { name: 'Avisos' }).getByRole('alert')).toHaveText(
    'No se ha eliminado «Se queda». Ha ocurrido un error inesperado. Inténtalo de nuevo.',
  );
  await expect(card).toBeVisible();
  await expect(card.getByRole('button', { name: 'Eliminar link' })).toBeEnabled();
});

test('a session that ended behind the app: creating a link signs the user out in the interface and keeps the long URL', async ({ page, consoleErrors }) => {
  consoleErrors.allow(/status of 401/);
  await signUpViaApi(page, { name: 'Caducada Ya' });
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Crear link' }).click();
  const dialog = page.getByRole('dialog', { name: 'Crear link' });
  await dialog.getByLabel('Nombre del link').fill('Tarde');
  await dialog.getByLabel('URL original').fill('https://ejemplo.com/tarde');
  // The dashboard's own requests settle first: one answered 401 would sign the user out before the click.
  await page.waitForLoadState('networkidle');
  // The session ends on the server (expired, or closed in another tab).
  expect((await page.request.post('/api/auth/logout', { headers: sameOrigin })).status()).toBe(204);
  await dialog.getByRole('button', { name: 'Crear' }).click();
  await expect(page).toHaveURL((url) => url.pathname === '/auth' && url.searchParams.get('createNew') === 'https://ejemplo.com/tarde');
  await expect(nav(page).getByRole('link', { name: 'Iniciar sesión' })).toBeVisible();
  await expect(nav(page).getByRole('button', { name: /^Menú de/ })).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('¡Espera! Primero inicia sesión...');
});

test('an ended session on a detail page goes to /auth and, once signed in, back to that page', async ({ page, consoleErrors }) => {
  consoleErrors.allow(/status of 401/);
  const account = await signUpViaApi(page, { name: 'Vuelve Aquí' });
  const created = await page.request.post('/api/links', { headers: sameOrigin, data: { title: 'Mi destino', longUrl: 'https://ejemplo.com/destino' } });
  const { link } = (await created.json()) as { link: { id: number } };
  await page.goto('/dashboard');
  await page.getByRole('link', { name: 'Mi destino' }).click();
  await expect(page).toHaveURL((url) => url.pathname === `/link/${link.id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Mi destino');
  // The page's last answer is in: the next request is the one asked below.
  await expect(page.getByText('No hay estadísticas disponibles para este link.')).toBeVisible();
  // The session ends on the server (expired, or closed in another tab).
  expect((await page.request.post('/api/auth/logout', { headers: sameOrigin })).status()).toBe(204);
  await page.getByLabel('Periodo').selectOption('7d');
  await expect(page).toHaveURL((url) => url.pathname === '/auth' && url.searchParams.get('next') === `/link/${link.id}`);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Contraseña').fill(account.password);
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
  await expect(page).toHaveURL((url) => url.pathname === `/link/${link.id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Mi destino');
});
