import type { Page, Route } from '@playwright/test';
import { networkMessages } from '../common/messages';
import { expect, test } from './fixtures';
import { signUpViaApi } from './helpers/accounts';

// A creation whose answer never comes back may still have made the link. The dialog says so,
// and 'Crear' again sends the same Idempotency-Key: the server gives back the first link rather
// than making a second one.

async function linkTitles(page: Page): Promise<string[]> {
  const { links } = (await (await page.request.get('/api/links')).json()) as { links: { title: string }[] };
  return links.map((link) => link.title);
}

async function openFilledDialog(page: Page, title: string) {
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Crear link' }).click();
  const dialog = page.getByRole('dialog', { name: 'Crear link' });
  await dialog.getByLabel('Nombre del link').fill(title);
  await dialog.getByLabel('URL original').fill('https://ejemplo.com/una-vez');
  return dialog;
}

test('the answer to the first creation is lost on the way back; the retry gets that same link, not a second', async ({ page, consoleErrors }) => {
  consoleErrors.allow(/ERR_CONNECTION_RESET/);
  await signUpViaApi(page, { name: 'Reintenta' });
  const keys: string[] = [];
  let lost = 0;
  await page.route('**/api/links', async (route: Route) => {
    if (route.request().method() !== 'POST') return route.fallback();
    keys.push(route.request().headers()['idempotency-key'] ?? '');
    if (lost > 0) return route.continue();
    lost += 1;
    // The server makes the link; the connection drops before its answer arrives.
    expect((await route.fetch()).status()).toBe(201);
    return route.abort('connectionreset');
  });
  const dialog = await openFilledDialog(page, 'Solo una vez');
  await dialog.getByRole('button', { name: 'Crear' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(
    `${networkMessages.unreachable} Puede que el link se haya creado: pulsa «Crear» de nuevo para comprobarlo, no se duplicará.`,
  );
  expect(await linkTitles(page)).toEqual(['Solo una vez']);

  await dialog.getByRole('button', { name: 'Crear' }).click();
  await expect(page).toHaveURL(/\/link\/\d+$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Solo una vez');
  expect(keys).toHaveLength(2);
  expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
  expect(keys[1]).toBe(keys[0]);
  expect(await linkTitles(page)).toEqual(['Solo una vez']);
});

test('a server silent past the deadline: the dialog cannot be closed meanwhile, then says what may have happened', async ({ page, consoleErrors }) => {
  consoleErrors.allow(/ERR_ABORTED|signal is aborted/);
  await page.clock.install();
  await signUpViaApi(page, { name: 'Sin Respuesta' });
  const held: Route[] = [];
  await page.route('**/api/links', (route) => (route.request().method() === 'POST' && held.length === 0 ? void held.push(route) : route.fallback()));
  const dialog = await openFilledDialog(page, 'Servidor mudo');
  await dialog.getByRole('button', { name: 'Crear' }).click();
  await expect(dialog.getByRole('status').filter({ hasText: 'Creando el link' })).toHaveText('Creando el link… La ventana se podrá cerrar cuando termine.');
  // Closing now would hide whether the link was made: ✕ is disabled and Esc does nothing. (The
  // dialog learns of the creation from the mutation cache a tick after the status line shows it.)
  await expect(dialog.getByRole('button', { name: 'Cerrar' })).toBeDisabled();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Cerrar' })).toBeDisabled();

  // 30 s later (the client's deadline; the server itself gives up after 10).
  await page.clock.fastForward(30_000);
  await expect(dialog.getByRole('alert')).toHaveText(
    `${networkMessages.timeout} Puede que el link se haya creado: pulsa «Crear» de nuevo para comprobarlo, no se duplicará.`,
  );
  await expect(dialog.getByRole('button', { name: 'Cerrar' })).toBeEnabled();
  await dialog.getByRole('button', { name: 'Crear' }).click();
  await expect(page).toHaveURL(/\/link\/\d+$/);
  expect(await linkTitles(page)).toEqual(['Servidor mudo']);
});
