import type { Page } from '@playwright/test';
import { expect, failedRequest, test } from './fixtures';
import { signUpViaApi } from './helpers/accounts';

// The Content-Security-Policy the server sends must not break any screen: every
// securitypolicyviolation the browser reports on the way through the app fails the test.

const desktop = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

async function violations(page: Page): Promise<string[]> {
  // String scripts: the e2e code is type-checked without the DOM library.
  return (await page.evaluate('window.cspViolations')) as string[];
}

test.beforeEach(async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.addInitScript(`
    window.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      window.cspViolations.push(event.violatedDirective + ' blocked ' + (event.blockedURI || 'inline') + ' (' + event.sourceFile + ':' + event.lineNumber + ')');
    });
  `);
});

test('no screen of the app trips the Content-Security-Policy', async ({ page, consoleErrors }) => {
  consoleErrors.allow(failedRequest(404, '/no-existe-este-enlace'));
  const landing = await page.goto('/');
  expect(landing?.headers()['content-security-policy']).toContain("script-src 'self'");
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const faq = page.getByRole('region', { name: 'Preguntas frecuentes' });
  await faq.getByText('¿Cómo funciona el acortador de URLs de Corto?').click();
  await expect(faq.getByText('Corto genera para ella una dirección corta y única')).toBeVisible();
  expect(await violations(page)).toEqual([]);

  await page.goto('/auth?createNew=https%3A%2F%2Fexample.com%2Flargo');
  await expect(page.getByRole('tab').first()).toBeVisible();
  expect(await violations(page)).toEqual([]);

  await signUpViaApi(page, { name: 'Ana Política' });
  await page.goto('/dashboard');
  // The avatar menu (a Radix popper) and its profile picture from /storage.
  await page.getByRole('button', { name: 'Menú de Ana Política' }).click();
  await expect(page.getByRole('menu')).toBeVisible();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Crear link' }).click();
  const dialog = page.getByRole('dialog', { name: 'Crear link' });
  await dialog.getByLabel('Nombre del link').fill('Con política');
  await dialog.getByLabel('URL original').fill('https://ejemplo.com/politica');
  // The QR preview is drawn in the browser (a data: or blob: image, or a canvas).
  await expect(dialog.getByRole('img').first()).toBeVisible();
  await dialog.getByRole('button', { name: 'Crear' }).click();
  await expect(page).toHaveURL(/\/link\/\d+$/);
  // One visit from a (non-bot) browser, so the detail page draws its charts.
  const id = page.url().split('/').at(-1)!;
  const { link } = (await (await page.request.get(`/api/links/${id}`)).json()) as { link: { shortLink: string } };
  const visit = await page.request.get(link.shortLink, { maxRedirects: 0, headers: { 'user-agent': desktop } });
  expect(visit.status()).toBe(302);
  await expect.poll(async () => ((await (await page.request.get(`/api/links/${id}/stats`)).json()) as { total: number }).total).toBe(1);
  // The detail page: the link, its QR from /storage, and the statistics card with the charts' chunk.
  await page.reload();
  await expect(page.getByRole('figure', { name: 'Clics por dispositivo' })).toBeVisible();
  expect(await violations(page)).toEqual([]);

  await page.goto('/no-existe-este-enlace');
  expect(await violations(page)).toEqual([]);
});
