import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { sameOrigin, signUpViaApi } from './helpers/accounts';
import { places } from './helpers/stats-screen';

// 'En directo' on a link's detail page (issue 33): a click made while the page is open appears at
// the top of the list without reloading, with where it came from, its device and whether it was a
// QR scan; the state says «Conectado»; at 375 px it stays within the screen.

const iphone =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const windows = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

async function createLink(page: Page, baseURL: string, title: string): Promise<{ id: number; shortLink: string }> {
  const response = await page.request.post('/api/links', { headers: sameOrigin, data: { title, longUrl: `${baseURL}/` } });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { link: { id: number; shortLink: string } }).link;
}

/** A visit by a plain request (no browser, no cookie), from `ip` as the proxy in front would say. */
async function visit(request: APIRequestContext, url: string, headers: Record<string, string>) {
  const response = await request.get(url, { headers, maxRedirects: 0 });
  expect(response.status()).toBe(302);
}

test('a click made while the detail page is open appears in «En directo» without reloading', async ({ page, request, baseURL }) => {
  await signUpViaApi(page, { name: 'Lola Directo' });
  const link = await createLink(page, baseURL!, 'Campaña en directo');
  await page.goto(`/link/${link.id}`);
  const live = page.getByRole('region', { name: 'En directo' });
  await expect(live.getByText('Conectado')).toBeVisible();
  await expect(live.getByText('Esperando clics')).toBeVisible();
  let loads = 0;
  page.on('load', () => (loads += 1));

  await visit(request, `${link.shortLink}?qr=1`, { 'user-agent': iphone, 'x-forwarded-for': places.fuencarral.ip, referer: 'https://t.co/x' });
  const rows = live.getByRole('listitem');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(places.fuencarral.city);
  await expect(rows.first()).toContainText('España');
  await expect(rows.first()).toContainText('Móvil');
  await expect(rows.first()).toContainText('t.co');
  await expect(rows.first()).toContainText('QR');

  // The newest at the top.
  await visit(request, link.shortLink, { 'user-agent': windows, 'x-forwarded-for': places.mountainView.ip });
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText(places.mountainView.city);
  await expect(rows.first()).toContainText('Directo');
  await expect(rows.first()).not.toContainText('QR');
  await expect(rows.nth(1)).toContainText(places.fuencarral.city);
  expect(loads).toBe(0);
  await expect(live.locator('[aria-live="polite"]')).toHaveCount(1);
});

test('at 375 px the live list stays within the screen', async ({ page, request, baseURL }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await signUpViaApi(page);
  const link = await createLink(page, baseURL!, 'Directo en el móvil');
  await page.goto(`/link/${link.id}`);
  const live = page.getByRole('region', { name: 'En directo' });
  await expect(live.getByText('Conectado')).toBeVisible();
  await visit(request, link.shortLink, { 'user-agent': iphone, 'x-forwarded-for': places.pozuelo.ip, referer: 'https://www.un-sitio-con-un-nombre-muy-largo.example/una/ruta' });
  await expect(live.getByRole('listitem')).toHaveCount(1);
  expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
});
