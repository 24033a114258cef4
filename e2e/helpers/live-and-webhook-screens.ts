import { type Page, expect } from '@playwright/test';
import { sameOrigin, signUpViaApi } from './accounts';
import type { Screen } from './screens';
import { createTeamViaApi } from './workspaces';

// Issue 33's screens for the screenshot spec: 'En directo' with clicks arrived, and a workspace's
// webhooks (one active, one disabled) with the secret of the one just made.

const iphone =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

/** The e2e server's own address (playwright.config.ts): the link leads back there, so a visit never leaves 127.0.0.1. */
const origin = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 4173)}`;

async function liveFeedWithClicks(page: Page) {
  await signUpViaApi(page, { name: 'Ana Gómez' });
  const made = await page.request.post('/api/links', { headers: sameOrigin, data: { title: 'Campaña en directo', longUrl: `${origin}/` } });
  expect(made.status(), await made.text()).toBe(201);
  const link = (await made.json()).link as { id: number; shortLink: string };
  await page.goto(`/link/${link.id}`);
  const live = page.getByRole('region', { name: 'En directo' });
  await expect(live.getByText('Conectado')).toBeVisible();
  const visits = [
    { ip: '213.0.0.1', referer: 'https://t.co/x', qr: true },
    { ip: '8.8.8.8', referer: undefined, qr: false },
  ];
  for (const visit of visits) {
    const response = await page.request.get(`${link.shortLink}${visit.qr ? '?qr=1' : ''}`, {
      maxRedirects: 0,
      headers: { 'user-agent': iphone, 'x-forwarded-for': visit.ip, ...(visit.referer ? { referer: visit.referer } : {}) },
    });
    expect(response.status()).toBe(302);
  }
  await expect(live.getByRole('listitem')).toHaveCount(2);
}

async function webhooksOfTeam(page: Page) {
  await signUpViaApi(page, { name: 'Ana Gómez' });
  const team = await createTeamViaApi(page, 'Marketing y Comunicación Institucional');
  const off = await page.request.post(`/api/webhooks?workspace=${team.slug}`, {
    headers: sameOrigin,
    data: { url: 'https://automatizaciones.empresa-e2e.example/hooks/corto/campanas-de-temporada', events: ['link.created', 'link.updated', 'link.deleted'] },
  });
  expect(off.status(), await off.text()).toBe(201);
  const { webhook } = (await off.json()) as { webhook: { id: number } };
  expect((await page.request.patch(`/api/webhooks/${webhook.id}?workspace=${team.slug}`, { headers: sameOrigin, data: { enabled: false } })).status()).toBe(200);
  await page.goto(`/w/${team.slug}/webhooks`);
  const form = page.getByRole('form', { name: 'Crear webhook' });
  await form.getByLabel('URL que recibirá los avisos').fill('https://crm.empresa-e2e.example/corto');
  await form.getByRole('button', { name: 'Crear webhook' }).click();
  await expect(page.getByRole('region', { name: 'Secreto del webhook' })).toBeVisible();
}

export const liveAndWebhookScreens: Screen[] = [
  { name: 'link-live-feed', open: liveFeedWithClicks },
  { name: 'workspace-webhooks', open: webhooksOfTeam },
];
