import { readFile } from 'node:fs/promises';
import jsQR from 'jsqr';
import sharp from 'sharp';
import { statsMessages } from '../common/stats/stats-messages';
import { sameOrigin, signUpViaApi } from './helpers/accounts';
import { expect, test } from './fixtures';

// The printable QR dialog of the detail page and the UTM builder of the link dialogs, in a real
// Chromium; downloaded codes are read back with a real decoder (SVG rasterised by sharp).

// Headless Chromium says so in its user agent, and a bot's visit is not counted.
test.use({
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
});

async function decodeQr(image: Buffer) {
  const { data, info } = await sharp(image).flatten({ background: '#ffffff' }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.byteLength), info.width, info.height)?.data;
}

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

test.beforeEach(async ({ page }) => {
  await signUpViaApi(page);
});

test('the QR dialog previews the code live and downloads PNG and SVG that decode to the address with ?qr=1; a scan counts', async ({ page, baseURL }) => {
  test.slow();
  const alias = `cartel-${unique()}`;
  const created = await page.request.post('/api/links', { headers: sameOrigin, data: { title: 'Cartel de la feria', longUrl: `${baseURL}/?feria=1`, customUrl: alias } });
  expect(created.status()).toBe(201);
  const { link } = await created.json();

  await page.goto(`/link/${link.id}`);
  await page.getByRole('button', { name: 'Código QR' }).click();
  const dialog = page.getByRole('dialog', { name: 'Descargar código QR' });
  const preview = dialog.getByRole('img', { name: 'Vista previa del código QR' });
  await expect(preview).toHaveAttribute('src', /format=png&size=512/);

  // A choice the server would refuse is explained at once, and nothing is downloadable meanwhile.
  await dialog.getByLabel('Tamaño (píxeles)').fill('5000');
  await expect(dialog.getByText('El tamaño debe ser un número entero entre 128 y 2048 píxeles')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Descargar' })).toBeDisabled();

  await dialog.getByLabel('Tamaño (píxeles)').fill('800');
  await dialog.getByLabel('Corrección de errores').selectOption('H');
  await dialog.getByLabel('Color', { exact: true }).fill('#1e3a8a');
  // The preview follows the choices.
  await expect(preview).toHaveAttribute('src', /size=800&margin=4&color=%231e3a8a&background=%23ffffff&ecc=H/);
  await expect.poll(() => preview.evaluate((element) => {
    const image = element as unknown as { complete: boolean; naturalWidth: number };
    return image.complete && image.naturalWidth;
  })).toBe(800);

  const pngDownload = page.waitForEvent('download');
  await dialog.getByRole('link', { name: 'Descargar PNG' }).click();
  const png = await pngDownload;
  expect(png.suggestedFilename()).toBe('Cartel de la feria.png');
  const pngBytes = await readFile((await png.path())!);
  expect((await sharp(pngBytes).metadata()).width).toBe(800);
  expect(await decodeQr(pngBytes)).toBe(`${baseURL}/${alias}?qr=1`);

  await dialog.getByLabel('Formato').selectOption('svg');
  await expect(preview).toHaveAttribute('src', /format=svg/);
  const svgDownload = page.waitForEvent('download');
  await dialog.getByRole('link', { name: 'Descargar SVG' }).click();
  const svg = await svgDownload;
  expect(svg.suggestedFilename()).toBe('Cartel de la feria.svg');
  const svgBytes = await readFile((await svg.path())!);
  expect(svgBytes.toString('utf8')).toMatch(/^<svg /);
  expect(await decodeQr(await sharp(svgBytes).png().toBuffer())).toBe(`${baseURL}/${alias}?qr=1`);

  // What the code carries, visited: the destination without qr, counted as a scan.
  await page.goto(`${baseURL}/${alias}?qr=1`);
  await expect(page).toHaveURL(`${baseURL}/?feria=1`);
  await expect
    .poll(async () => (await (await page.request.get(`/api/links/${link.id}`)).json()).link.scans, { timeout: 10_000 })
    .toBe(1);
  await page.goto(`/link/${link.id}`);
  // The figure by its hint: once the chart has drawn, its legend says 'Escaneos QR' too.
  const figure = page.getByTitle(statsMessages.scansHint);
  await expect(figure).toContainText(statsMessages.scans);
  await expect(figure).toContainText('1');
});

test('the UTM builder shows the final URL as it is typed and creates and edits the link with it', async ({ page }) => {
  test.slow();
  await page.goto('/dashboard?createNew=' + encodeURIComponent('https://tienda.example/zapatos?talla=42#ofertas'));
  const dialog = page.getByRole('dialog', { name: 'Crear link' });
  await dialog.getByLabel('Nombre del link').fill('Rebajas');
  await dialog.getByLabel('Origen (utm_source)').fill('boletín');
  await dialog.getByLabel('Medio (utm_medium)').fill('email');
  await dialog.getByLabel('Campaña (utm_campaign)').fill('rebajas verano');
  const finalUrl = dialog.getByRole('status', { name: 'URL final' });
  await expect(finalUrl).toHaveText(
    'https://tienda.example/zapatos?talla=42&utm_source=bolet%C3%ADn&utm_medium=email&utm_campaign=rebajas%20verano#ofertas',
  );
  await dialog.getByLabel(/Reenviar los parámetros de la visita/).check();
  await dialog.getByRole('button', { name: 'Crear' }).click();
  await expect(page).toHaveURL(/\/link\/\d+$/);
  const id = page.url().split('/').at(-1);
  const { link } = await (await page.request.get(`/api/links/${id}`)).json();
  expect(link.originalUrl).toBe('https://tienda.example/zapatos?talla=42&utm_source=bolet%C3%ADn&utm_medium=email&utm_campaign=rebajas%20verano#ofertas');
  expect(link.forwardQuery).toBe(true);

  // Editing: the builder starts from the destination's campaign; an emptied field removes its parameter.
  await page.getByRole('button', { name: 'Editar link' }).click();
  const edit = page.getByRole('dialog', { name: 'Editar link' });
  await expect(edit.getByLabel('Origen (utm_source)')).toHaveValue('boletín');
  await edit.getByLabel('Medio (utm_medium)').fill('');
  await edit.getByLabel('Contenido (utm_content)').fill('banner');
  await expect(edit.getByRole('status', { name: 'URL final' })).toHaveText(
    'https://tienda.example/zapatos?talla=42&utm_source=bolet%C3%ADn&utm_campaign=rebajas%20verano&utm_content=banner#ofertas',
  );
  await edit.getByRole('button', { name: 'Guardar' }).click();
  await expect(edit).toBeHidden();
  const edited = (await (await page.request.get(`/api/links/${id}`)).json()).link;
  expect(edited.originalUrl).toBe('https://tienda.example/zapatos?talla=42&utm_source=bolet%C3%ADn&utm_campaign=rebajas%20verano&utm_content=banner#ofertas');
});
