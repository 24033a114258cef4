import { readFile } from 'node:fs/promises';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { sameOrigin, signUpViaApi } from './helpers/accounts';

// The 'Estadísticas' card in a real Chromium against the built server: clicks recorded by the
// real redirect route from a phone and a computer, the device chart, the empty and loading
// texts, the CSV download.

const agents = {
  phone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  // Not Chromium's own headless agent: isbot would rightly leave it out of the counts.
  desktop: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
};

interface CreatedLink {
  id: number;
  shortLink: string;
}

async function createLink(request: APIRequestContext, baseURL: string, title: string): Promise<CreatedLink> {
  // The link leads back to this app's landing page, so a visit never leaves 127.0.0.1.
  const response = await request.post('/api/links', { headers: sameOrigin, data: { title, longUrl: `${baseURL}/` } });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { link: CreatedLink }).link;
}

/** Opens the short address in a browser of its own that announces `userAgent`. */
async function visitAs(browser: Browser, userAgent: string, shortLink: string) {
  const context = await browser.newContext({ userAgent });
  const page = await context.newPage();
  await page.goto(shortLink);
  await expect(page).toHaveURL(/\/$/);
  await context.close();
}

/** Waits for the click writer's next flush (every 100 ms by default) to have stored `total` clicks. */
async function waitForClicks(page: Page, id: number, total: number) {
  await expect
    .poll(async () => ((await (await page.request.get(`/api/links/${id}/stats`)).json()) as { total: number }).total)
    .toBe(total);
}

test.beforeEach(async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await signUpViaApi(page);
});

test('a link visited from a phone and from a computer shows both in the device chart, and exports them as CSV', async ({ page, browser, baseURL }) => {
  const link = await createLink(page.request, baseURL!, 'Visitado dos veces');
  await visitAs(browser, agents.phone, link.shortLink);
  await visitAs(browser, agents.desktop, link.shortLink);
  await waitForClicks(page, link.id, 2);

  await page.goto(`/link/${link.id}`);
  const card = page.getByRole('region', { name: 'Estadísticas' });
  await expect(card.getByText('Total de clics')).toBeVisible();
  await expect(card.getByText('Total de clics').locator('xpath=following-sibling::p')).toHaveText('2');

  const devices = page.getByRole('figure', { name: 'Clics por dispositivo' });
  await expect(devices.locator('.recharts-pie-sector')).toHaveCount(2);
  await expect(devices.getByRole('row', { name: 'Móvil 50 % (1 clic)' })).toBeAttached();
  await expect(devices.getByRole('row', { name: 'Escritorio 50 % (1 clic)' })).toBeAttached();
  // Equal counts: ordered by stored value, desktop before mobile.
  await expect(devices.locator('.recharts-legend-item-text')).toHaveText(['Escritorio 50%', 'Móvil 50%']);

  const cities = page.getByRole('figure', { name: 'Clics por ciudad' });
  await expect(cities.locator('svg.recharts-surface')).toBeVisible();
  await expect(cities.getByRole('link', { name: 'Geolocalización IP por DB-IP' })).toHaveAttribute('href', 'https://db-ip.com');

  const downloading = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Exportar CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^clicks-[a-z0-9]{6}-\d{4}-\d{2}-\d{2}\.csv$/);
  const lines = (await readFile((await download.path())!, 'utf8')).replace(/^\uFEFF/, '').trimEnd().split('\r\n');
  expect(lines[0]).toBe('date,country,city,device,browser,os,referrer,destination');
  // Every cell a visitor can write is quoted (formula-safe whichever separator a spreadsheet uses).
  expect(lines.slice(1).map((line) => line.split(',')[3])).toEqual(['"mobile"', '"desktop"']);
});

test("a link nobody visited says there are no statistics, after 'Cargando estadísticas...' while they load", async ({ page, baseURL }) => {
  const link = await createLink(page.request, baseURL!, 'Sin visitas');
  // Hold the real answer back until the loading text has been seen.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/links/*/stats*', async (route) => {
    await held;
    await route.continue();
  });

  await page.goto(`/link/${link.id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sin visitas');
  await expect(page.getByText('Cargando estadísticas...')).toBeVisible();
  release();
  await expect(page.getByText('No hay estadísticas disponibles para este link.')).toBeVisible();
  await expect(page.getByText('Cargando estadísticas...')).toHaveCount(0);
});

test('the charts library is fetched on the detail page only', async ({ page, baseURL }) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Mis Links' })).toBeVisible();
  const beforeDetail = [...scripts];

  const link = await createLink(page.request, baseURL!, 'Con gráficos');
  await visitAs(page.context().browser()!, agents.desktop, link.shortLink);
  await waitForClicks(page, link.id, 1);
  await page.goto(`/link/${link.id}`);
  await expect(page.getByRole('figure', { name: 'Clics por dispositivo' })).toBeVisible();
  const chartChunks = scripts.filter((path) => !beforeDetail.includes(path) && /stats-charts/.test(path));
  expect(chartChunks).toHaveLength(1);
  // The landing page and the dashboard fetched no chart code.
  expect(beforeDetail.filter((path) => /stats-charts|recharts/.test(path))).toEqual([]);
});
