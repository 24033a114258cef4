import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { signUpViaApi, sameOrigin } from './helpers/accounts';
import { holdRequests } from './helpers/hold';

// react-router moves to a new screen in a transition: while its code downloads, the old screen
// stays up. The teal bar at the top must say that something is on its way.

const screenBar = (page: Page) => page.getByRole('progressbar', { name: 'Cargando página' });

test("'Acortar!' on the landing page shows the teal bar while the sign-in screen's code downloads", async ({ page }) => {
  const chunk = await holdRequests(page, '**/assets/auth-page-*.js');
  await page.goto('/');
  await page.getByRole('textbox', { name: 'URL que quieres acortar' }).fill('https://ejemplo.com/larga');
  await page.getByRole('button', { name: 'Acortar!' }).click();
  await expect(screenBar(page)).toBeVisible();
  await expect(page).toHaveURL((url) => url.pathname === '/auth');
  expect(chunk.held).toHaveLength(1);
  chunk.release();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('¡Espera! Primero inicia sesión...');
  await expect(screenBar(page)).toHaveCount(0);
});

test("clicking a card shows the teal bar while the detail screen's code downloads", async ({ page }) => {
  await signUpViaApi(page, { name: 'Lenta' });
  const created = await page.request.post('/api/links', { headers: sameOrigin, data: { title: 'Mi enlace lento', longUrl: 'https://ejemplo.com/lento' } });
  expect(created.status()).toBe(201);
  const chunk = await holdRequests(page, '**/assets/link-detail-page-*.js');
  await page.goto('/dashboard');
  await page.getByRole('link', { name: 'Mi enlace lento' }).click();
  await expect(screenBar(page)).toBeVisible();
  await expect(page).toHaveURL(/\/link\/\d+$/);
  chunk.release();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Mi enlace lento');
  await expect(screenBar(page)).toHaveCount(0);
});

test("a screen whose code cannot be downloaded says so in Spanish instead of a blank page", async ({ page, consoleErrors }) => {
  consoleErrors.allow(/ERR_INTERNET_DISCONNECTED|Failed to fetch dynamically imported module/);
  await page.route('**/assets/auth-page-*.js', (route) => route.abort('internetdisconnected'));
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: 'Iniciar sesión' }).click();
  const alert = page.getByRole('alert');
  await expect(alert.getByRole('heading', { level: 1 })).toHaveText('No se pudo cargar esta página');
  await expect(alert).toContainText('No se pudo conectar con el servidor. Revisa tu conexión e inténtalo de nuevo.');
  await page.unroute('**/assets/auth-page-*.js');
  await alert.getByRole('button', { name: 'Reintentar' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Iniciar sesión / Registrarse');
});
