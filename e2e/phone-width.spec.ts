import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { picturePng, sameOrigin, signUpViaApi } from './helpers/accounts';

// Every screen a user or a visitor meets fits a 375 px phone: nothing is wider than the screen,
// so nothing needs sideways scrolling (the admin screens have a test of their own).

const PHONE = { width: 375, height: 740 };

async function fitsThePhone(page: Page, what: string) {
  // The page has settled: its heading is there, and no request is still loading it.
  await expect(page.locator('h1').first(), what).toBeVisible();
  await page.waitForLoadState('networkidle');
  const width = await page.evaluate('document.documentElement.scrollWidth');
  expect(width, `${what} is ${String(width)} px wide`).toBeLessThanOrEqual(PHONE.width);
}

test('every screen fits 375 px, signed out and signed in, dialogs and visitor pages included', async ({ page, browser, consoleErrors }) => {
  test.setTimeout(120_000);
  // Unknown addresses (404), closed links (404, 410) and forged one-time links (400) are what these screens are for.
  consoleErrors.allow(/status of (400|404|410) /);
  await page.setViewportSize(PHONE);

  // Signed out, in a context of its own.
  const visitor = await browser.newContext({ viewport: PHONE });
  const visitorPage = await visitor.newPage();
  for (const path of [
    '/',
    '/auth',
    '/auth?tab=register',
    '/auth/recuperar',
    '/auth/restablecer?token=inventado',
    '/auth/verificar?token=inventado',
    '/denunciar',
    '/no/existe/esta/pagina',
    '/zz8zz8',
  ]) {
    await visitorPage.goto(path);
    await fitsThePhone(visitorPage, path);
  }

  // Signed in: a user with links in every state a visitor can meet.
  await signUpViaApi(page, { name: 'Mariana de la Concepción Fernández-Villaverde' });
  const create = async (data: Record<string, unknown>, changes?: Record<string, unknown>) => {
    const response = await page.request.post('/api/links', { headers: sameOrigin, data });
    expect(response.status(), await response.text()).toBe(201);
    const { link } = (await response.json()) as { link: { id: number; shortCode: string } };
    if (changes) expect((await page.request.patch(`/api/links/${link.id}`, { headers: sameOrigin, data: changes })).status()).toBe(200);
    return link;
  };
  const long = await create(
    { title: 'Un título de link bastante largo para ver cómo se corta en un teléfono', longUrl: 'https://ejemplo.com/una/ruta/muy/larga/que/no/cabe/en/la/pantalla?con=parametros&y=mas', tags: ['campaña', 'verano', 'otoño'] },
    { expiresAt: new Date(Date.now() + 7 * 86_400_000).toISOString(), maxClicks: 500 },
  );
  const paused = await create({ title: 'En pausa', longUrl: 'https://ejemplo.com/pausa' }, { paused: true });
  const locked = await create({ title: 'Con clave', longUrl: 'https://ejemplo.com/clave' }, { password: 'abre-sesamo' });
  const expired = await create({ title: 'Caducado', longUrl: 'https://ejemplo.com/caducado' }, { maxClicks: 1 });
  // One human visit uses its one click up (a request without a browser's agent counts as a bot).
  const human = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36' };
  expect((await visitorPage.request.get(`/${expired.shortCode}`, { maxRedirects: 0, headers: human })).status()).toBe(302);

  for (const code of [paused.shortCode, locked.shortCode, expired.shortCode]) {
    await visitorPage.goto(`/${code}`);
    await fitsThePhone(visitorPage, `the visitor page of /${code}`);
  }
  await visitor.close();

  for (const path of ['/dashboard', `/link/${long.id}`, '/cuenta', '/cuenta/tokens', '/denunciar', '/no/existe']) {
    await page.goto(path);
    await fitsThePhone(page, `${path} signed in`);
  }

  // /cuenta with a picture chosen whose name is long.
  await page.goto('/cuenta');
  await page.getByLabel('Nueva foto').setInputFiles({ name: 'una-foto-de-perfil-con-un-nombre-de-archivo-larguisimo.png', mimeType: 'image/png', buffer: await picturePng() });
  await fitsThePhone(page, '/cuenta with a picture chosen');

  // The dialogs.
  await page.goto('/dashboard?createNew=https%3A%2F%2Fejemplo.com%2Fnuevo');
  await expect(page.getByRole('dialog', { name: 'Crear link' })).toBeVisible();
  await fitsThePhone(page, 'the create dialog');
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Importar' }).click();
  await expect(page.getByRole('dialog', { name: 'Importar links' })).toBeVisible();
  await fitsThePhone(page, 'the import dialog');
  await page.goto(`/link/${long.id}`);
  await page.getByRole('button', { name: 'Editar link' }).click();
  await expect(page.getByRole('dialog', { name: 'Editar link' })).toBeVisible();
  await fitsThePhone(page, 'the edit dialog');
  await page.goto(`/link/${long.id}`);
  await page.getByRole('button', { name: 'Código QR' }).first().click();
  await expect(page.getByRole('dialog', { name: 'Descargar código QR' })).toBeVisible();
  await fitsThePhone(page, 'the QR dialog');
});
