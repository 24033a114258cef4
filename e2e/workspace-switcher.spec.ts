import { workspaceMessages } from '../common/workspaces/workspace-messages';
import { expect, failedRequest, test } from './fixtures';
import { signUpViaApi } from './helpers/accounts';
import { switcher, uniqueSlug } from './helpers/workspaces';

// The top bar's workspace switcher: the personal workspace first, named after the user, then the
// teams; «Crear equipo» makes one (with its address previewed) and goes to it. By keyboard, and on a phone.

test('creates a team from the switcher and lands on its dashboard', async ({ page, consoleErrors }) => {
  await signUpViaApi(page, { name: 'Ana Equipos' });
  await page.goto('/dashboard');
  const trigger = switcher(page);
  await expect(trigger).toHaveAccessibleName('Espacio de trabajo: Ana Equipos. Cambiar de espacio');

  // A menu button: Enter opens it, the arrows move, Escape closes it and focus goes back.
  await trigger.focus();
  await page.keyboard.press('Enter');
  const menu = page.getByRole('menu');
  const items = menu.getByRole('menuitem');
  await expect(items.first()).toContainText('Ana Equipos');
  await expect(items.first()).toContainText('Personal');
  await expect(items.last()).toHaveText('Crear equipo');
  await expect(items.first()).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(items.last()).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(items.first()).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  await expect(trigger).toBeFocused();

  await trigger.click();
  await page.getByRole('menuitem', { name: 'Crear equipo' }).click();
  const dialog = page.getByRole('dialog', { name: 'Crear equipo' });
  await expect(dialog.getByLabel('Nombre')).toBeFocused();

  // Spanish messages from the shared rules, before anything is sent.
  await dialog.getByRole('button', { name: 'Crear equipo' }).click();
  await expect(dialog.getByText(workspaceMessages.nameRequired)).toBeVisible();
  await dialog.getByLabel('Nombre').fill('Diseño Gráfico');
  // The address is previewed from the name while no slug is typed...
  await expect(dialog.getByText(/\/w\/diseno-grafico$/)).toBeVisible();
  await dialog.getByLabel('Identificador (opcional)').fill('a--b');
  await dialog.getByRole('button', { name: 'Crear equipo' }).click();
  await expect(dialog.getByText(workspaceMessages.slugInvalid)).toBeVisible();
  await dialog.getByLabel('Identificador (opcional)').fill('dashboard');
  await dialog.getByRole('button', { name: 'Crear equipo' }).click();
  await expect(dialog.getByText(workspaceMessages.slugReserved)).toBeVisible();
  // ...and from the slug once one is.
  const slug = uniqueSlug('diseno');
  await dialog.getByLabel('Identificador (opcional)').fill(slug.toUpperCase());
  await expect(dialog.getByText(new RegExp(`/w/${slug}$`))).toBeVisible();
  await dialog.getByRole('button', { name: 'Crear equipo' }).click();

  await expect(page).toHaveURL(new RegExp(`/w/${slug}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Diseño Gráfico' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Equipo «Diseño Gráfico» creado' })).toHaveAttribute('data-tone', 'success');
  await expect(trigger).toHaveAccessibleName('Espacio de trabajo: Diseño Gráfico. Cambiar de espacio');
  await expect(page.getByRole('navigation', { name: 'Espacio de trabajo' }).getByRole('link', { name: 'Miembros' })).toBeVisible();

  // The personal workspace is still first; the team follows with the caller's role there.
  await trigger.click();
  await expect(page.getByRole('menuitem').nth(1)).toContainText('Diseño Gráfico');
  await expect(page.getByRole('menuitem').nth(1)).toContainText('Propietario');
  await page.getByRole('menuitem').first().click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Mis Links' })).toBeVisible();

  // A slug already taken is refused by the server, under the field.
  consoleErrors.allow(failedRequest(409, '/api/workspaces'));
  await trigger.click();
  await page.getByRole('menuitem', { name: 'Crear equipo' }).click();
  await dialog.getByLabel('Nombre').fill('Otro');
  await dialog.getByLabel('Identificador (opcional)').fill(slug);
  await dialog.getByRole('button', { name: 'Crear equipo' }).click();
  await expect(dialog.getByText(workspaceMessages.slugTaken).first()).toBeVisible();
});

test('the switcher and its dialog fit a phone', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await signUpViaApi(page, { name: 'Bea Con Un Nombre Bastante Largo' });
  await page.goto('/dashboard');
  const trigger = switcher(page);
  await expect(trigger).toBeVisible();
  await trigger.click();
  const menu = page.getByRole('menu');
  await expect(menu).toBeVisible();
  const box = (await menu.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(375);
  await page.getByRole('menuitem', { name: 'Crear equipo' }).click();
  const dialog = page.getByRole('dialog', { name: 'Crear equipo' });
  const dialogBox = (await dialog.boundingBox())!;
  expect(dialogBox.x + dialogBox.width).toBeLessThanOrEqual(375);
  expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
});
