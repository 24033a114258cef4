import { expect, test } from './fixtures';
import { signUpViaApi } from './helpers/accounts';

// A normal session leaves the console clean: no 401 for the session on signed-out pages, no
// Content-Security-Policy violation when a dialog or menu opens. The fixture fails any test on a
// console error; this one walks the screens a new user sees and shows the console was listened to.

test('a signed-out visitor, then a new user, leave the console clean on every screen', async ({ page, consoleErrors }) => {
  const session = page.waitForResponse('**/api/auth/session');
  await page.goto('/');
  expect((await session).status()).toBe(200);
  expect(await (await session).json()).toEqual({ user: null });
  await expect(page.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: 'Iniciar sesión' })).toBeVisible();
  await page.goto('/auth');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Iniciar sesión / Registrarse');
  await page.goto('/auth?createNew=https%3A%2F%2Fejemplo.com');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('¡Espera! Primero inicia sesión...');

  await signUpViaApi(page, { name: 'Consola Limpia' });
  await page.goto('/dashboard');
  // The avatar menu, and the create dialog (Radix's scroll lock adds its rules without an inline <style>).
  await page.getByRole('button', { name: 'Menú de Consola Limpia' }).click();
  await expect(page.getByRole('menu')).toBeVisible();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Crear link' }).click();
  const dialog = page.getByRole('dialog', { name: 'Crear link' });
  await expect(dialog).toBeVisible();
  // The page behind does not scroll while the dialog is open.
  await expect(page.locator('body')).toHaveCSS('overflow', 'hidden');
  await dialog.getByLabel('Nombre del link').fill('Limpio');
  await dialog.getByLabel('URL original').fill('https://ejemplo.com/limpio');
  await dialog.getByRole('button', { name: 'Crear' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Limpio');
  await page.getByRole('button', { name: 'Eliminar link' }).click();
  await expect(page.getByRole('dialog', { name: '¿Eliminar este link?' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.locator('body')).not.toHaveCSS('overflow', 'hidden');
  expect(consoleErrors.seen).toEqual([]);
});
