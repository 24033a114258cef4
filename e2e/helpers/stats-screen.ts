import { type Page, expect } from '@playwright/test';
import { sameOrigin, signUpViaApi } from './accounts';

// The detail page with statistics to show: a link visited through the real redirect route from
// a few devices and sites, for the accessibility and screenshot specs.

const visits: Array<{ agent: string; referer?: string }> = [
  { agent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1', referer: 'https://t.co/x' },
  { agent: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36', referer: 'https://www.instagram.com/' },
  { agent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36' },
  { agent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15', referer: 'https://news.ycombinator.com/' },
  { agent: 'Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1' },
];

export async function openDetailWithStats(page: Page) {
  await page.emulateMedia({ reducedMotion: 'reduce' }); // charts drawn at once, no animation
  await signUpViaApi(page, { name: 'Ana Gómez' });
  const created = await page.request.post('/api/links', { headers: sameOrigin, data: { title: 'Campaña de otoño', longUrl: 'https://ejemplo.com/otono' } });
  expect(created.status(), await created.text()).toBe(201);
  const { link } = (await created.json()) as { link: { id: number; shortLink: string } };
  for (const { agent, referer } of visits) {
    const response = await page.request.get(link.shortLink, {
      maxRedirects: 0,
      headers: { 'user-agent': agent, ...(referer ? { referer } : {}) },
    });
    expect(response.status()).toBe(302);
  }
  await expect
    .poll(async () => ((await (await page.request.get(`/api/links/${link.id}/stats`)).json()) as { total: number }).total)
    .toBe(visits.length);
  await page.goto(`/link/${link.id}`);
  await expect(page.getByRole('figure', { name: 'Clicks por dispositivo' }).locator('.recharts-pie-sector')).toHaveCount(3);
  await expect(page.getByRole('figure', { name: 'Clicks por día' }).locator('.recharts-area')).toHaveCount(2);
}
