import { expect, test } from './fixtures';
import { signUpViaApi, sameOrigin } from './helpers/accounts';

// Closing a dialog puts focus back on the control that opened it, not on the page's body, so a
// keyboard or screen-reader user carries on from where they were.

test('closing the create dialog with Esc or ✕ returns focus to «Crear link»', async ({ page }) => {
  await signUpViaApi(page, { name: 'Foco' });
  await page.goto('/dashboard');
  const open = page.getByRole('button', { name: 'Crear link' });
  const dialog = page.getByRole('dialog', { name: 'Crear link' });

  await open.click();
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(open).toBeFocused();

  await open.press('Enter');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cerrar' }).click();
  await expect(dialog).toBeHidden();
  await expect(open).toBeFocused();
});

test('the dialog opened by createNew also hands focus to «Crear link» when closed', async ({ page }) => {
  await signUpViaApi(page, { name: 'Foco Prellenado' });
  await page.goto('/dashboard?createNew=https%3A%2F%2Fejemplo.com%2Fx');
  await expect(page.getByRole('dialog', { name: 'Crear link' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: 'Crear link' })).toBeFocused();
});

test('cancelling a delete returns focus to its «Eliminar link» button', async ({ page }) => {
  await signUpViaApi(page, { name: 'Foco Borrado' });
  expect((await page.request.post('/api/links', { headers: sameOrigin, data: { title: 'Quieto', longUrl: 'https://ejemplo.com/q' } })).status()).toBe(201);
  await page.goto('/dashboard');
  const remove = page.getByRole('list', { name: 'Links' }).getByRole('button', { name: 'Eliminar link' });
  const confirm = page.getByRole('dialog', { name: '¿Eliminar este link?' });
  for (const close of ['Cancelar', 'Escape', 'Cerrar'] as const) {
    await remove.click();
    await expect(confirm).toBeVisible();
    if (close === 'Escape') await page.keyboard.press('Escape');
    else await confirm.getByRole('button', { name: close, exact: true }).click();
    await expect(confirm).toBeHidden();
    await expect(remove).toBeFocused();
  }
});
