import { type Page, expect } from '@playwright/test';
import { sameOrigin, signUpViaApi } from './accounts';

// The detail page with statistics to show: a link visited through the real redirect route from
// a few devices, sites and places, for the accessibility, screenshot and statistics specs. The
// places come from X-Forwarded-For (the e2e server trusts 127.0.0.1 as its proxy), looked up in
// the real DB-IP database, and were picked for their long names.

const agents = {
  iphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  android: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
  windows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  mac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  ipad: 'Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1',
};

/** DB-IP's city for each address (checked against the installed database). */
export const places = {
  fuencarral: { ip: '213.0.0.1', city: 'Madrid (Fuencarral - El Pardo)' },
  mountainView: { ip: '8.8.8.8', city: 'Mountain View' },
  pozuelo: { ip: '62.36.0.1', city: 'Pozuelo de Alarcon' },
  ibiza: { ip: '2.136.0.1', city: 'Ibiza Town' },
  sydney: { ip: '1.1.1.1', city: 'Sydney' },
};

const visits: Array<{ agent: string; ip: string; referer?: string }> = [
  { agent: agents.iphone, ip: places.fuencarral.ip, referer: 'https://t.co/x' },
  { agent: agents.android, ip: places.fuencarral.ip, referer: 'https://www.instagram.com/' },
  { agent: agents.windows, ip: places.fuencarral.ip },
  { agent: agents.mac, ip: places.mountainView.ip, referer: 'https://news.ycombinator.com/' },
  { agent: agents.ipad, ip: places.mountainView.ip },
  { agent: agents.iphone, ip: places.pozuelo.ip },
  { agent: agents.windows, ip: places.pozuelo.ip },
  { agent: agents.android, ip: places.ibiza.ip },
  { agent: agents.windows, ip: places.sydney.ip },
];

export async function openDetailWithStats(page: Page) {
  await page.emulateMedia({ reducedMotion: 'reduce' }); // charts drawn at once, no animation
  await signUpViaApi(page, { name: 'Ana Gómez' });
  const created = await page.request.post('/api/links', { headers: sameOrigin, data: { title: 'Campaña de otoño', longUrl: 'https://ejemplo.com/otono' } });
  expect(created.status(), await created.text()).toBe(201);
  const { link } = (await created.json()) as { link: { id: number; shortLink: string } };
  for (const { agent, ip, referer } of visits) {
    const response = await page.request.get(link.shortLink, {
      maxRedirects: 0,
      headers: { 'user-agent': agent, 'x-forwarded-for': ip, ...(referer ? { referer } : {}) },
    });
    expect(response.status()).toBe(302);
  }
  await expect
    .poll(async () => ((await (await page.request.get(`/api/links/${link.id}/stats`)).json()) as { total: number }).total)
    .toBe(visits.length);
  await page.goto(`/link/${link.id}`);
  await expect(page.getByRole('figure', { name: 'Clics por dispositivo' }).locator('.recharts-pie-sector')).toHaveCount(3);
  await expect(page.getByRole('figure', { name: 'Clics por día' }).locator('.recharts-area')).toHaveCount(3);
}

/**
 * The detail page of a link with a rule (iPhones to the App Store) and an A/B test between two
 * pages, visited by the same people as above (some twice), for the statistics per destination.
 */
export async function openRoutedDetail(page: Page) {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await signUpViaApi(page, { name: 'Ana Gómez' });
  const created = await page.request.post('/api/links', {
    headers: sameOrigin,
    data: {
      title: 'Lanzamiento de la app',
      longUrl: 'https://ejemplo.com/app',
      rules: [{ when: { os: ['ios'] }, url: 'https://apps.apple.com/es/app/ejemplo/id000000001' }],
      variants: [
        { url: 'https://ejemplo.com/app/portada-a', weight: 50 },
        { url: 'https://ejemplo.com/app/portada-b', weight: 50 },
      ],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { link } = (await created.json()) as { link: { id: number; shortLink: string } };
  const twice = [...visits, ...visits.slice(1, 4)];
  for (const { agent, ip } of twice) {
    const response = await page.request.get(link.shortLink, { maxRedirects: 0, headers: { 'user-agent': agent, 'x-forwarded-for': ip } });
    expect(response.status()).toBe(302);
    // Each visitor is someone else: the variant's cookie stays with the one who got it.
    await page.context().clearCookies({ name: `corto_ab_${link.id}` });
  }
  await expect
    .poll(async () => ((await (await page.request.get(`/api/links/${link.id}/stats`)).json()) as { total: number }).total)
    .toBe(twice.length);
  await page.goto(`/link/${link.id}`);
  await expect(page.getByRole('heading', { name: 'Por destino' })).toBeVisible();
  await expect(page.getByRole('figure', { name: 'Clics por día' })).toBeVisible();
}
