import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { sameOrigin, signUpViaApi, uniqueEmail } from './helpers/accounts';
import { signInAsAdmin } from './helpers/admin';

// Every operator's screen on a 375 px phone: nothing wider than the screen (no sideways scrolling),
// every action button on screen, and axe clean, with long e-mails, titles, addresses and reasons in
// every list.

const routes = ['/admin/usuarios', '/admin/links', '/admin/espacios', '/admin/denuncias', '/admin/denuncias?lista=gestionadas', '/admin/ajustes', '/admin/registro'];

async function seed(page: Page) {
  const long = 'x'.repeat(60);
  const owner = await signUpViaApi(page, {
    name: 'Maximiliana Constantinopolitana de los Montes Altos y Bajos',
    email: uniqueEmail(`una-direccion-de-correo-muy-larga-${long}`),
  });
  const created = await page.request.post('/api/links', {
    headers: sameOrigin,
    data: { title: `Un título larguísimo para ver cómo se parte en un teléfono ${long}`, longUrl: `https://example.com/${long}/${long}?utm_source=${long}` },
  });
  expect(created.status()).toBe(201);
  const link = (await created.json()).link as { id: number; shortLink: string };
  for (const reason of [`Sin espacios: ${long}${long}`, 'Una denuncia que se gestiona']) {
    expect((await page.request.post('/api/reports', { headers: sameOrigin, data: { address: link.shortLink, reason, email: `${long}@example.com` } })).status()).toBe(202);
  }
  return { owner, link };
}

test('every /admin screen fits a 375 px phone, its actions on screen, and axe finds nothing serious', async ({ browser, page }) => {
  test.setTimeout(120_000);
  const userContext = await browser.newContext();
  const { owner, link } = await seed(await userContext.newPage());
  await userContext.close();

  await signInAsAdmin(page);
  // Something in every list: a disabled link with a long reason, a handled report.
  const disable = await page.request.patch(`/api/admin/links/${link.id}`, { headers: sameOrigin, data: { disabled: true, reason: `Motivo largo ${'y'.repeat(80)}` } });
  expect(disable.status()).toBe(200);
  const { reports } = (await (await page.request.get('/api/admin/reports')).json()) as { reports: { id: number; reason: string }[] };
  const handled = reports.find((report) => report.reason === 'Una denuncia que se gestiona')!;
  expect((await page.request.patch(`/api/admin/reports/${handled.id}`, { headers: sameOrigin, data: { state: 'dismissed' } })).status()).toBe(200);

  await page.setViewportSize({ width: 375, height: 800 });
  for (const route of routes) {
    await page.goto(route);
    await expect(page.getByRole('heading', { level: 2 })).toBeVisible();
    await expect(page.getByRole('progressbar')).toHaveCount(0);
    if (route !== '/admin/ajustes') await expect(page.getByRole('listitem').first()).toBeVisible();
    const scrollWidth = await page.evaluate('document.documentElement.scrollWidth');
    expect(scrollWidth, `${route} is ${scrollWidth} px wide`).toBeLessThanOrEqual(375);
    for (const button of await page.getByRole('main').getByRole('button').all()) {
      const box = await button.boundingBox();
      if (!box) continue;
      expect(box.x, `${route}: «${await button.textContent()}» starts on screen`).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, `${route}: «${await button.textContent()}» ends on screen`).toBeLessThanOrEqual(375);
    }
    // To look at, as e2e/screenshots.spec.ts keeps the other screens.
    await page.screenshot({ path: `e2e/artifacts/screenshots/admin${route.replace(/\W+/g, '-')}-375.png`, fullPage: true });
    const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
    const found = results.violations.filter((violation) => ['moderate', 'serious', 'critical'].includes(violation.impact ?? ''));
    expect(found.map((v) => `${route}: ${v.id} (${v.impact}) ${v.nodes.length} nodes: ${v.nodes[0]?.target.join(' ')}`)).toEqual([]);
  }

  // The actions work from the phone: delete the account through the app's dialog.
  await page.goto(`/admin/usuarios?q=${encodeURIComponent(owner.email)}`);
  const card = page.getByRole('list', { name: 'Usuarios' }).getByRole('listitem').filter({ hasText: owner.email });
  await card.getByRole('button', { name: 'Eliminar' }).click();
  const dialog = page.getByRole('dialog', { name: `¿Eliminar la cuenta de ${owner.email}?` });
  await expect(dialog).toContainText('No se puede deshacer');
  expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
  await dialog.getByRole('button', { name: 'Eliminar cuenta' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: 'Cuenta eliminada' })).toBeVisible();
  await expect(page.getByText('Ningún usuario coincide con la búsqueda.')).toBeVisible();
});

test('/admin/links at 1280 px: every line, the dates included, has enough contrast', async ({ page }) => {
  await signInAsAdmin(page);
  const created = await page.request.post('/api/links', { headers: sameOrigin, data: { title: 'Contraste', longUrl: 'https://example.com/contraste' } });
  expect(created.status()).toBe(201);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/admin/links');
  await expect(page.getByRole('list', { name: 'Links' }).getByRole('listitem').first()).toBeVisible();
  const results = await new AxeBuilder({ page }).withRules(['color-contrast']).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.length} nodes`)).toEqual([]);
});

test('a refused action is told inside its dialog, beside its buttons, and the dialog stays', async ({ browser, page, consoleErrors }) => {
  const userContext = await browser.newContext();
  const target = await signUpViaApi(await userContext.newPage(), { email: uniqueEmail('rechazo') });
  await userContext.close();
  await signInAsAdmin(page);
  await page.setViewportSize({ width: 375, height: 800 });
  // The server refuses (as it does for the last admin): the answer is made here.
  consoleErrors.allow(/status of 409 \(Conflict\) \(http:\/\/[^/]+\/api\/admin\/users\/\d+\)$/);
  await page.route('**/api/admin/users/*', (route) =>
    route.request().method() === 'PATCH'
      ? route.fulfill({ status: 409, contentType: 'application/json', body: JSON.stringify({ error: { code: 'conflict', message: 'Tiene que quedar al menos un administrador' } }) })
      : route.fallback(),
  );
  await page.goto(`/admin/usuarios?q=${encodeURIComponent(target.email)}`);
  const card = page.getByRole('list', { name: 'Usuarios' }).getByRole('listitem').filter({ hasText: target.email });
  await card.getByRole('button', { name: 'Desactivar' }).click();
  const dialog = page.getByRole('dialog', { name: `¿Desactivar la cuenta de ${target.email}?` });
  await dialog.getByRole('button', { name: 'Desactivar cuenta' }).click();
  const alert = dialog.getByRole('alert');
  await expect(alert).toHaveText('Tiene que quedar al menos un administrador');
  await expect(alert).toBeInViewport();
  await expect(dialog.getByRole('button', { name: 'Desactivar cuenta' })).toBeEnabled();
  const results = await new AxeBuilder({ page }).include('[role="dialog"]').analyze();
  expect(results.violations.filter((v) => ['moderate', 'serious', 'critical'].includes(v.impact ?? '')).map((v) => v.id)).toEqual([]);
  await dialog.getByRole('button', { name: 'Cancelar' }).click();
  await expect(card).toContainText('Activo');
});
