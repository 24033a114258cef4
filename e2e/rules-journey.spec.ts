import { devices } from '@playwright/test';
import jsQR from 'jsqr';
import sharp from 'sharp';
import { expect, test } from './fixtures';
import { sameOrigin, signUpViaApi } from './helpers/accounts';

// One printed QR code, two visitors: a rule made in the edit dialog sends an iPhone to the App
// Store and everyone else to the web. The code is read from the stored PNG, opened by an emulated
// iPhone and by a desktop browser, and the detail page counts each destination.

// Both destinations are answered by this server (its health check), so nothing leaves the machine:
// the «App Store» for iPhones, the «web» for everyone else. By the name localhost: a URL on the
// instance's own host (127.0.0.1 here) would be refused as a loop.
let appStore: string;
let web: string;
// A desktop Chromium that does not say «Headless» (a headless browser's visit is a bot's).
const desktopAgent = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

async function decodeQr(image: Buffer) {
  const { data, info } = await sharp(image).flatten({ background: '#ffffff' }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.byteLength), info.width, info.height)?.data;
}

test('a rule sends an iPhone and a desktop to different places through one QR, and each destination is counted', async ({ page, browser, baseURL }) => {
  test.slow();
  const port = new URL(baseURL!).port;
  appStore = `http://localhost:${port}/api/health?tienda=app-store`;
  web = `http://localhost:${port}/api/health?tienda=web`;
  await signUpViaApi(page, { name: 'Tienda' });
  const alias = `tienda-${Date.now().toString(36)}`;
  const created = await page.request.post('/api/links', { headers: sameOrigin, data: { title: 'App de la tienda', longUrl: web, customUrl: alias } });
  expect(created.status(), await created.text()).toBe(201);
  const { link } = await created.json();

  // The rule, made in the edit dialog: «Sistema» iOS sends to the App Store.
  await page.goto(`/link/${link.id}`);
  await page.getByRole('button', { name: 'Editar link' }).click();
  const dialog = page.getByRole('dialog', { name: 'Editar link' });
  await dialog.getByRole('button', { name: 'Añadir regla' }).click();
  await dialog.getByLabel('Enviar a esta URL').fill(appStore);
  await dialog.getByRole('button', { name: 'Añadir condición' }).click();
  await dialog.getByRole('button', { name: 'Sistema', exact: true }).click();
  await dialog.getByRole('checkbox', { name: 'iOS' }).check();
  // «Probar» answers from the form as it stands.
  await dialog.getByRole('combobox', { name: 'Sistema', exact: true }).selectOption({ label: 'iOS' });
  await expect(dialog.getByText(`Iría a: ${appStore} (regla 1)`)).toBeVisible();
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Reglas', { exact: true }).first()).toBeVisible();

  // The printed code: the stored PNG, read back.
  const png = await page.request.get(link.qr);
  expect(png.status()).toBe(200);
  const address = await decodeQr(await png.body());
  expect(address).toBe(`${baseURL}/${alias}?qr=1`);

  // Two visitors scan it.
  const { defaultBrowserType: _ignored, ...iphone } = devices['iPhone 13'];
  for (const [options, expected] of [
    [iphone, appStore],
    [{ userAgent: desktopAgent }, web],
  ] as const) {
    const context = await browser.newContext(options);
    const visitor = await context.newPage();
    await visitor.goto(address!);
    expect(visitor.url()).toBe(expected);
    await context.close();
  }

  // Counted per destination, both as scans of the code.
  await expect
    .poll(async () => {
      const stats = await (await page.request.get(`/api/links/${link.id}/stats`, { headers: sameOrigin })).json();
      return (stats.byDestination as { source: string; url: string; clicks: number }[]).map(({ source, url, clicks }) => `${source} ${url} ${clicks}`).sort();
    })
    .toEqual([`default ${web} 1`, `rule ${appStore} 1`]);
  await page.reload();
  const byDestination = page.getByRole('heading', { name: 'Por destino' });
  await byDestination.scrollIntoViewIfNeeded();
  await expect(byDestination).toBeVisible();
  await expect(page.getByText('Regla 1').first()).toBeVisible();
  await expect(page.getByText('Destino principal').first()).toBeVisible();
});
