import { expect, test } from './fixtures';

// The register form on a 375 px phone: the picture field's text fits rather than being cut.

test("'Sin imagen elegida' shows whole on a 375 px phone", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/auth');
  await page.getByRole('tab', { name: 'Registrarse' }).click();
  const name = page.getByText('Sin imagen elegida', { exact: true });
  await expect(name).toBeVisible();
  // Cut text ('Sin imagen el…') is wider inside than the box that shows it.
  const cut = await name.evaluate((el: { scrollWidth: number; clientWidth: number }) => el.scrollWidth > el.clientWidth);
  expect(cut).toBe(false);
});
