import { expect, failedRequest, test } from './fixtures';
import { openRedirectScreen } from './helpers/screens';

test('an unknown route shows the Spanish 404 page', async ({ page }) => {
  await page.goto('/esto/no/existe');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Página no encontrada');
  await expect(page).toHaveTitle('Página no encontrada · Corto');
  await page.getByRole('link', { name: 'Volver al inicio' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('El único shortener de Links que vas a necesitar');
});

test('opening an unknown short address shows the 404 page and does not loop', async ({ page, consoleErrors }) => {
  consoleErrors.allow(failedRequest(404, '/nx0nx0'));
  const documentLoads: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'document') documentLoads.push(new URL(request.url()).pathname);
  });
  await page.goto('/nx0nx0');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Página no encontrada');
  await expect(page.getByText('Redirecting...')).toHaveCount(0);
  expect(documentLoads).toEqual(['/nx0nx0']);
});

test('navigating in the app to a short address shows Redirecting... and hands the visit to the server', async ({ page }) => {
  const request = await openRedirectScreen(page, 'ab12cd');
  await expect(page.getByRole('progressbar', { name: 'Redirigiendo' })).toBeVisible();
  await expect(page).toHaveTitle('Redirigiendo · Corto');
  // A full page load, so the server's 302 does the redirect and records the click.
  expect(request.isNavigationRequest()).toBe(true);
  expect(new URL(request.url()).pathname).toBe('/ab12cd');
});
