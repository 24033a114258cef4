import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import jsQR from 'jsqr';
import sharp from 'sharp';
import { signUpViaApi, sameOrigin } from './helpers/accounts';

// What a Spanish speaker types and reads: an alias with 'ñ', destinations with accents and an
// international domain, and Spanish dates and counts whatever language the browser is set to.

async function decodeQr(png: Buffer) {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.byteLength), info.width, info.height)?.data;
}

/** The text the create dialog's QR preview encodes (its image is a data: address). */
async function previewQrText(page: Page) {
  const preview = page.getByRole('dialog', { name: 'Crear link' }).getByRole('img', { name: 'Vista previa del código QR' });
  const src = await preview.getAttribute('src');
  expect(src).toMatch(/^data:image\/png;base64,/);
  return decodeQr(Buffer.from(src!.split(',')[1]!, 'base64'));
}

test.beforeEach(async ({ page }) => {
  await signUpViaApi(page);
});

test("an alias 'Ñoquis' is created from the dialog, shown readable, and visited typed in any case", async ({ page, baseURL }) => {
  await page.goto('/dashboard?createNew=' + encodeURIComponent(`${baseURL}/?receta=1`));
  const dialog = page.getByRole('dialog', { name: 'Crear link' });
  await dialog.getByLabel('Nombre del link').fill('Receta de ñoquis');
  await dialog.getByLabel('URL personalizada (opcional)').fill('Ñoquis');
  // The preview already encodes the alias as the stored QR will: in the URL's ASCII form.
  await expect.poll(() => previewQrText(page)).toBe(`${baseURL}/%C3%91oquis?qr=1`);
  await expect(dialog.getByText('Vista previa: el QR llevará a tu dirección corta.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Crear' }).click();

  await expect(page).toHaveURL(/\/link\/\d+$/);
  const shortLink = page.getByRole('link', { name: `${baseURL}/Ñoquis` });
  await expect(shortLink).toBeVisible();
  const qr = await page.request.get((await page.getByRole('img', { name: 'Código QR de Receta de ñoquis' }).getAttribute('src'))!);
  expect(await decodeQr(await qr.body())).toBe(`${baseURL}/%C3%91oquis?qr=1`);

  // Typed into the address bar as it is shown, and in lower case: both reach the destination.
  for (const typed of [`${baseURL}/Ñoquis`, `${baseURL}/ñoquis`]) {
    await page.goto(typed);
    await expect(page).toHaveURL(`${baseURL}/?receta=1`);
  }
  // Someone else cannot take it in another case.
  const taken = await page.request.post('/api/links', { headers: sameOrigin, data: { title: 't', longUrl: 'https://ejemplo.com', customUrl: 'ÑOQUIS' } });
  expect(taken.status()).toBe(409);
});

test("the dialog's QR preview without an alias points at a path nobody can claim, and says so", async ({ page }) => {
  await page.goto('/dashboard?createNew=' + encodeURIComponent('https://ejemplo.com/largo'));
  const dialog = page.getByRole('dialog', { name: 'Crear link' });
  await expect(dialog.getByText(/^Vista previa: no lleva a ningún sitio todavía\./)).toBeVisible();
  const encoded = await previewQrText(page);
  expect(encoded).toBeDefined();
  const path = decodeURIComponent(new URL(encoded!).pathname.slice(1));
  const claim = await page.request.post('/api/links', { headers: sameOrigin, data: { title: 'Trampa', longUrl: 'https://ejemplo.com', customUrl: path } });
  expect(claim.status(), `the preview's path '${path}' must not be claimable`).toBe(400);
});

test('the destination reads the same on the card and the detail page: decoded, with its domain in Unicode, linking to the stored URL', async ({ page }) => {
  const destinations = [
    { typed: 'https://es.wikipedia.org/wiki/Canción_de_cuna', stored: 'https://es.wikipedia.org/wiki/Canci%C3%B3n_de_cuna' },
    { typed: 'https://españa.es/mañana', stored: 'https://xn--espaa-rta.es/ma%C3%B1ana' },
  ];
  for (const [index, { typed, stored }] of destinations.entries()) {
    const response = await page.request.post('/api/links', { headers: sameOrigin, data: { title: `Destino ${index}`, longUrl: typed } });
    const { link } = (await response.json()) as { link: { id: number; originalUrl: string } };
    expect(link.originalUrl).toBe(stored);

    await page.goto(`/link/${link.id}`);
    const destination = page.getByRole('link', { name: typed });
    await expect(destination).toBeVisible();
    await expect(destination).toHaveAttribute('href', stored);

    await page.goto('/dashboard');
    const card = page.getByRole('list', { name: 'Links' }).getByRole('listitem').filter({ hasText: `Destino ${index}` });
    await expect(card.getByText(typed.replace('https://', ''), { exact: true })).toBeVisible();
  }
});

test('an en-US browser in Los Angeles sees Spanish dates in its own time zone, and Spanish counts', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL, locale: 'en-US', timezoneId: 'America/Los_Angeles' });
  const page = await context.newPage();
  await signUpViaApi(page);
  const response = await page.request.post('/api/links', { headers: sameOrigin, data: { title: 'Fecha', longUrl: 'https://ejemplo.com/fecha' } });
  const { link } = (await response.json()) as { link: { id: number; createdAt: string } };
  // The hour and day the link was made, in Los Angeles, as Spanish writes them.
  const inLosAngeles = (options: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat('es', { ...options, timeZone: 'America/Los_Angeles' }).format(new Date(link.createdAt));
  const day = inLosAngeles({ day: 'numeric' });
  const time = inLosAngeles({ hour: 'numeric', minute: '2-digit', hourCycle: 'h23' });
  const spanishDate = new RegExp(`^${day} [a-z]{3,4}\\.? \\d{4}, ${time}$`);

  await page.goto('/dashboard');
  const card = page.getByRole('list', { name: 'Links' }).getByRole('listitem').first();
  const cardDate = card.locator('time');
  await expect(cardDate).toHaveText(spanishDate);
  await expect(cardDate).not.toHaveText(/AM|PM|\//);
  await expect(card).toContainText('0 clics');

  await page.goto(`/link/${link.id}`);
  await expect(page.getByText(/^Creado el /).locator('time')).toHaveText(spanishDate);
  await context.close();
});
