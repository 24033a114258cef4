import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import jsQR from 'jsqr';
import sharp from 'sharp';
import { sameOrigin } from './helpers/accounts';

// One journey through the links feature in a real Chromium against the built server:
// create from the dialog, dashboard, filter, copy, download the QR, detail page, delete.

async function signUp(page: Page) {
  const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#14b8a6' } }).png().toBuffer();
  const response = await page.request.post('/api/auth/register', {
    headers: sameOrigin,
    multipart: {
      name: 'Ana Enlaces',
      email: `ana-${Date.now()}-${Math.random().toString(36).slice(2)}@corto.test`,
      password: 'secreto-123',
      profileImage: { name: 'ana.png', mimeType: 'image/png', buffer: png },
    },
  });
  expect(response.status()).toBe(201);
}

async function decodeQr(png: Buffer) {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.byteLength), info.width, info.height)?.data;
}

test.beforeEach(async ({ page, context, baseURL }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  await signUp(page);
});

test('create a link from the prefilled dialog, then find, copy, download and delete it', async ({ page, baseURL }) => {
  // A long journey: room for a busy machine.
  test.slow();
  // Arriving with createNew opens the dialog with the long URL filled in.
  await page.goto('/dashboard?createNew=' + encodeURIComponent('https://example.com/articulo/muy-largo'));
  const dialog = page.getByRole('dialog', { name: 'Crear link' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('URL original')).toHaveValue('https://example.com/articulo/muy-largo');
  await expect(dialog.getByRole('img', { name: 'Vista previa del código QR' })).toBeVisible();

  // Every message at once, plus the general one.
  await dialog.getByLabel('URL original').fill('no es una url');
  await dialog.getByLabel('URL personalizada (opcional)').fill('a!');
  await dialog.getByRole('button', { name: 'Crear' }).click();
  await expect(dialog.getByText('El título es obligatorio')).toBeVisible();
  await expect(dialog.getByText('La URL debe ser válida')).toBeVisible();
  await expect(dialog.getByText('La URL personalizada debe tener entre 3 y 50 caracteres')).toBeVisible();
  await expect(dialog.getByText('La URL personalizada solo puede tener letras')).toBeVisible();
  await expect(dialog.getByRole('alert')).toHaveText('Revisa los datos del formulario.');

  await dialog.getByLabel('Nombre del link').fill('Artículo largo');
  await dialog.getByLabel('URL original').fill('https://example.com/articulo/muy-largo');
  await dialog.getByLabel('URL personalizada (opcional)').fill('articulo-e2e');
  await dialog.getByRole('button', { name: 'Crear' }).click();

  await expect(page).toHaveURL(/\/link\/\d+$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Artículo largo');
  await expect(page.getByRole('link', { name: `${baseURL}/articulo-e2e` })).toBeVisible();
  await expect(page.getByRole('link', { name: 'https://example.com/articulo/muy-largo' })).toBeVisible();

  // A second link, from the dashboard's button, without an alias.
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Crear link' }).click();
  await page.getByLabel('Nombre del link').fill('Segundo enlace');
  await page.getByLabel('URL original').fill('https://example.org/otro');
  await page.getByRole('button', { name: 'Crear' }).click();
  await expect(page).toHaveURL(/\/link\/\d+$/);

  await page.goto('/dashboard');
  const cards = page.getByRole('list', { name: 'Links' }).getByRole('listitem');
  await expect(cards).toHaveCount(2);
  await expect(page.getByText('Total de links creados').locator('xpath=../..')).toContainText('2');

  // The filter searches titles regardless of case.
  await page.getByPlaceholder('Filtrar links...').fill('ARTÍCULO');
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText('Artículo largo');
  await page.getByPlaceholder('Filtrar links...').fill('');
  await expect(cards).toHaveCount(2);

  const card = cards.filter({ hasText: 'Artículo largo' });
  await card.getByRole('button', { name: 'Copiar dirección corta' }).click();
  await expect(card.getByRole('button', { name: 'Dirección copiada' })).toBeVisible();
  expect(await page.evaluate('navigator.clipboard.readText()')).toBe(`${baseURL}/articulo-e2e`);
  await expect(card.getByRole('button', { name: 'Copiar dirección corta' })).toBeVisible({ timeout: 5000 });

  const [download] = await Promise.all([page.waitForEvent('download'), card.getByRole('link', { name: 'Descargar QR' }).click()]);
  expect(download.suggestedFilename()).toBe('Artículo largo.png');
  expect(await decodeQr(await readFile(await download.path()))).toBe(`${baseURL}/articulo-e2e?qr=1`);

  // The card opens the detail page; deleting there asks first, then goes back to the dashboard.
  // Anywhere on the card, not only the title: the stretched link lies over the text (hence force).
  await card.getByText('articulo-e2e').click({ force: true });
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Artículo largo');
  await page.getByRole('button', { name: 'Eliminar link' }).click();
  const confirm = page.getByRole('dialog', { name: '¿Eliminar este link?' });
  await confirm.getByRole('button', { name: 'Cancelar' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Artículo largo');
  await page.getByRole('button', { name: 'Eliminar link' }).click();
  await confirm.getByRole('button', { name: 'Eliminar' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(cards).toHaveCount(1);
  expect((await page.request.get(`${baseURL}/articulo-e2e`, { maxRedirects: 0 })).status()).toBe(404);

  // Deleting from the card reloads the list.
  await cards.first().getByRole('button', { name: 'Eliminar link' }).click();
  await page.getByRole('dialog', { name: '¿Eliminar este link?' }).getByRole('button', { name: 'Eliminar' }).click();
  await expect(cards).toHaveCount(0);
  await expect(page.getByText('Todavía no tienes links.')).toBeVisible();
});

test('closing the prefilled dialog clears createNew; an unknown link sends the detail page back', async ({ page, consoleErrors }) => {
  consoleErrors.allow(/status of 404 .*\/api\/links\/987654/);
  await page.goto('/dashboard?createNew=' + encodeURIComponent('https://example.com/x'));
  await expect(page.getByRole('dialog', { name: 'Crear link' })).toBeVisible();
  await page.getByRole('button', { name: 'Cerrar' }).click();
  await expect(page.getByRole('dialog')).toBeHidden();
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto('/link/987654');
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('with more links than a page, the list stays virtualised, loads on scroll, and the filter searches them all', async ({ page }) => {
  test.slow(); // 130 links created through the API, each with its QR
  const count = 130;
  for (let i = 1; i <= count; i++) {
    const title = `Enlace ${String(i).padStart(3, '0')}`;
    const response = await page.request.post('/api/links', { headers: sameOrigin, data: { title, longUrl: `https://example.com/${i}` } });
    expect(response.status()).toBe(201);
  }
  await page.goto('/dashboard');
  await expect(page.getByText('Total de links creados').locator('xpath=../..')).toContainText(String(count));
  const cards = page.getByRole('list', { name: 'Links' }).getByRole('listitem');
  await expect(cards.first()).toContainText('Enlace 130');
  // Only the cards near the viewport are in the page.
  expect(await cards.count()).toBeLessThan(30);

  // The oldest link is on the third page: scrolling down loads pages until it shows.
  const oldest = cards.filter({ hasText: 'Enlace 001' });
  await expect(async () => {
    await page.mouse.wheel(0, 5000);
    await expect(oldest).toBeVisible({ timeout: 500 });
  }).toPass({ timeout: 20_000 });

  // The filter asks the server, so it finds links whose page was never loaded.
  await page.goto('/dashboard');
  await page.getByPlaceholder('Filtrar links...').fill('enlace 002');
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText('Enlace 002');
});
