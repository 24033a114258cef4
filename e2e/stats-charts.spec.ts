import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { signUpViaApi, sameOrigin } from './helpers/accounts';
import { openDetailWithStats, places } from './helpers/stats-screen';

// How the statistics charts look with real data: long city names on a phone and on a desktop, a
// device pie of one device, counts in Spanish.

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const boxOf = async (locator: Locator): Promise<Box> => {
  const box = await locator.boundingBox();
  expect(box).not.toBeNull();
  return box!;
};

/** The city chart's five labels: each inside the chart, none over another. */
async function expectCityLabelsReadable(page: Page) {
  const chart = page.getByRole('figure', { name: 'Clics por ciudad' });
  const surface = await boxOf(chart.locator('svg.recharts-surface'));
  const labels = chart.locator('.recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-label');
  await expect(labels).toHaveCount(5);
  const boxes: Box[] = [];
  for (const label of await labels.all()) {
    const box = await boxOf(label.locator('text'));
    expect(box.x, 'label starts inside the chart').toBeGreaterThanOrEqual(surface.x);
    expect(box.x + box.width, 'label ends inside the chart').toBeLessThanOrEqual(surface.x + surface.width);
    expect(box.y + box.height, 'label ends above the chart’s bottom').toBeLessThanOrEqual(surface.y + surface.height);
    boxes.push(box);
  }
  // No two labels share any pixel (on a phone they take turns on two rows).
  const apart = (a: Box, b: Box) => a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;
  for (let i = 0; i < boxes.length; i += 1) {
    for (let j = i + 1; j < boxes.length; j += 1) expect(apart(boxes[i]!, boxes[j]!), `labels ${i + 1} and ${j + 1} apart`).toBe(true);
  }
  // Whatever the labels had to shorten, each full name is in its hover title and in the table.
  for (const { city } of Object.values(places)) {
    await expect(labels.locator('title', { hasText: city })).toHaveCount(1);
    await expect(chart.getByRole('row', { name: new RegExp(`^${city.replace(/[()]/g, '\\$&')} \\d+ clics?$`) })).toBeAttached();
  }
}

for (const width of [375, 1280]) {
  test(`every city name of the location chart is readable at ${width} px, whole in its title and in the table`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await openDetailWithStats(page);
    await expectCityLabelsReadable(page);
    // Spanish agreement in the table: 'Ibiza Town' has one click, 'Pozuelo de Alarcon' two.
    const cities = page.getByRole('figure', { name: 'Clics por ciudad' });
    await expect(cities.getByRole('row', { name: 'Ibiza Town 1 clic' })).toBeAttached();
    await expect(cities.getByRole('row', { name: 'Pozuelo de Alarcon 2 clics' })).toBeAttached();
  });
}

test('a device pie of a single device is a whole disc, without the notch of a slice edge', async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await signUpViaApi(page);
  const created = await page.request.post('/api/links', { headers: sameOrigin, data: { title: 'Solo escritorio', longUrl: 'https://ejemplo.com/uno' } });
  const { link } = (await created.json()) as { link: { id: number; shortLink: string } };
  const agent = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
  for (let i = 0; i < 2; i += 1) {
    expect((await page.request.get(link.shortLink, { maxRedirects: 0, headers: { 'user-agent': agent } })).status()).toBe(302);
  }
  await expect
    .poll(async () => ((await (await page.request.get(`/api/links/${link.id}/stats`)).json()) as { total: number }).total)
    .toBe(2);
  await page.goto(`/link/${link.id}`);
  const devices = page.getByRole('figure', { name: 'Clics por dispositivo' });
  const slice = devices.locator('.recharts-pie-sector path');
  await expect(slice).toHaveCount(1);
  // A stroke on a lone 360° sector draws its start edge as a line from the centre to the rim.
  await expect(slice).toHaveAttribute('stroke', 'none');
  await expect(devices.getByRole('row', { name: 'Escritorio 100 % (2 clics)' })).toBeAttached();
  // The daily table: '2 clics, 1 visitante' (one address and agent: one visitor).
  await expect(page.getByRole('figure', { name: 'Clics por día' }).getByRole('row').first()).toHaveText(/2 clics, 1 visitante, 0 escaneos QR$/);
});
