import { chromium } from '@playwright/test';
import { e2eDnsPort } from '../playwright.config';
import { startTlsFront, type TlsFront } from '../server/test/caddy-pebble';
import { type Dnsmasq, startDnsmasq, txt } from '../server/test/dnsmasq';
import { chromiumArgs, chromiumPath } from './chromium';
import { expect, test } from './fixtures';
import { sameOrigin, signUpViaApi } from './helpers/accounts';
import { createTeamViaApi } from './helpers/workspaces';

// A team's own domain from start to finish, with the real parts: the domain added on its page, its
// TXT record served by a real DNS server (dnsmasq, where the server's DNS_SERVERS points), verified
// with «Verificar», a link created on it from the dashboard's dialog, and a visitor opening it over
// HTTPS through Caddy (the shipped deploy/Caddyfile), whose certificate Pebble issued on that first
// visit.

let dns: Dnsmasq | undefined;
let front: TlsFront | undefined;
test.afterEach(async () => {
  await front?.stop();
  await dns?.stop();
  [front, dns] = [undefined, undefined];
});

test('add a domain, verify it by its TXT record, create a link on it and visit it over HTTPS', async ({ page, baseURL }) => {
  test.slow();
  dns = await startDnsmasq([], { port: e2eDnsPort, zones: ['test'] });
  await signUpViaApi(page, { name: 'Olga Dueña' });
  const team = await createTeamViaApi(page, 'Ventas');
  const hostname = `go-${Date.now().toString(36)}.empresa.test`;

  await page.goto(`/w/${team.slug}/dominios`);
  const form = page.getByRole('form', { name: 'Añadir dominio' });
  await form.getByLabel('Dominio', { exact: true }).fill(hostname);
  await form.getByRole('button', { name: 'Añadir dominio' }).click();
  const card = page.getByRole('group', { name: hostname });
  await expect(card.getByText('Pendiente de verificar')).toBeVisible();

  // The owner creates the record the page shows, and asks again.
  const name = `_corto-challenge.${hostname}`;
  await expect(card.getByText(name)).toBeVisible();
  const value = await card.getByText(/^corto-verify=/).textContent();
  await dns.setRecords([txt(name, value!)]);
  await card.getByRole('button', { name: 'Verificar' }).click();
  await expect(card.getByText('Verificado', { exact: true })).toBeVisible();

  // A link on it, from the dashboard's dialog: the domain chosen in «Dominio».
  await page.goto(`/w/${team.slug}`);
  await page.getByRole('button', { name: 'Crear link' }).click();
  const dialog = page.getByRole('dialog', { name: 'Crear link' });
  await dialog.getByLabel('Nombre del link').fill('Oferta de invierno');
  await dialog.getByLabel('URL original').fill(`${baseURL}/api/health`);
  await dialog.getByLabel('Dominio').selectOption({ label: hostname });
  await dialog.getByLabel('URL personalizada (opcional)').fill('oferta');
  await dialog.getByRole('button', { name: 'Crear' }).click();
  await expect(page).toHaveURL(/\/link\/\d+$/);
  const linkId = Number(/\/link\/(\d+)$/.exec(page.url())![1]);
  await expect(page.getByRole('link', { name: `https://${hostname}/oferta` })).toBeVisible();

  // A visitor's browser: the name leads to Caddy on this machine.
  front = await startTlsFront(Number(new URL(baseURL!).port));
  const browser = await chromium.launch({ executablePath: chromiumPath, args: [...chromiumArgs, `--host-resolver-rules=MAP ${hostname} 127.0.0.1`] });
  try {
    // Pebble's root is no browser's: the certificate is checked below, by its issuer.
    // A person's browser (a headless one's visits are a bot's, not counted).
    const visitor = await browser.newPage({
      ignoreHTTPSErrors: true,
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
    });
    const arrived = await visitor.goto(`https://${hostname}:${front.httpsPort}/oferta`);
    expect(arrived?.url()).toBe(`${baseURL}/api/health`);
    const redirect = await arrived!.request().redirectedFrom()!.response();
    expect(redirect!.status()).toBe(302);
    expect((await redirect!.securityDetails())?.issuer).toMatch(/^Pebble/);
    expect((await redirect!.securityDetails())?.subjectName).toBe(hostname);
    // The app is not served on the team's domain.
    const app = await visitor.goto(`https://${hostname}:${front.httpsPort}/dashboard`);
    expect(app?.status()).toBe(404);
  } finally {
    await browser.close();
  }

  // The visit counts.
  await expect
    .poll(async () => (await (await page.request.get(`/api/links/${linkId}?workspace=${team.slug}`, { headers: sameOrigin })).json()).link.clicks)
    .toBe(1);
});
