import { expect, failedRequest, test } from './fixtures';

test('the landing page is Spanish and the layout links home', async ({ page }) => {
  await page.goto('/');
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('El único shortener de Links que vas a necesitar');
  await expect(page.getByRole('link', { name: 'Corto' })).toHaveAttribute('href', '/');
});

test('every route of the spec renders inside the shared layout', async ({ page, consoleErrors }) => {
  consoleErrors.allow(failedRequest(404, '/abc123')); // an unknown short address: the server's 404 page
  for (const path of ['/auth', '/dashboard', '/link/1', '/abc123']) {
    await page.goto(path);
    await expect(page.getByRole('navigation', { name: 'Principal' })).toBeVisible();
    await expect(page.locator('main')).not.toBeEmpty();
  }
});

test('the server answers health and unknown API paths with JSON', async ({ request }) => {
  const health = await request.get('/api/health');
  expect(health.status()).toBe(200);
  expect(await health.json()).toEqual({ status: 'ok', database: 'sqlite' });
  const missing = await request.get('/api/nothing-here');
  expect(missing.status()).toBe(404);
  expect((await missing.json()).error.code).toBe('not_found');
});
