import AxeBuilder from '@axe-core/playwright';
import { expect, test } from './fixtures';

// /api/docs/: the API reference, Spanish, accessible and readable on a phone.

for (const width of [375, 1280]) {
  test(`the API reference at ${width} px: Spanish, no sideways scrolling, and axe finds nothing moderate or worse`, async ({ page }) => {
    test.setTimeout(180_000); // axe reads every field of every operation: a long page
    await page.setViewportSize({ width, height: 900 });
    const response = await page.goto('/api/docs/');
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1, name: 'API de Corto: referencia' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 3, name: 'Crear un link' })).toBeVisible();
    // None of Swagger UI's English chrome.
    await expect(page.getByText(/Try it out|Execute|Authorize|Responses|Parameters/)).toHaveCount(0);
    // The token limit as this instance applies it, not the variable's name.
    await expect(page.getByText('API_RATE_LIMIT')).toHaveCount(0);
    await expect(page.getByText(/Límite por token: 600 peticiones por minuto/)).toBeVisible();

    // Open every response's fields, so axe and the width check see them too.
    for (const summary of await page.locator('summary').all()) await summary.click();
    const scrollWidth = await page.evaluate('document.documentElement.scrollWidth');
    expect(scrollWidth).toBeLessThanOrEqual(width);

    const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
    const found = results.violations.filter((violation) => ['moderate', 'serious', 'critical'].includes(violation.impact ?? ''));
    expect(found.map((v) => `${v.id} (${v.impact}) ${v.nodes.length} nodes: ${v.nodes[0]?.target.join(' ')}`)).toEqual([]);
  });
}

test('the API reference by keyboard: skip link first, then the index leads to each operation', async ({ page }) => {
  await page.goto('/api/docs/');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Saltar al contenido' })).toBeFocused();
  const index = page.getByRole('navigation', { name: 'Índice' });
  await index.getByRole('link', { name: 'Estadísticas de un link' }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/#op-get-api-links-id-stats$/);
  await expect(page.getByRole('heading', { level: 3, name: 'Estadísticas de un link' })).toBeInViewport();
});
