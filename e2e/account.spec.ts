import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { expect, failedRequest, test } from './fixtures';
import { sameOrigin, signUpViaApi } from './helpers/accounts';

// The account page end to end: reached from the avatar menu, each form against the real server.

async function openAccountPage(page: Page, name: string) {
  await page.goto('/dashboard');
  await page.getByRole('button', { name: `Menú de ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Mi cuenta' }).click();
  await expect(page).toHaveURL(/\/cuenta$/);
  await expect(page.getByRole('heading', { name: 'Mi cuenta', level: 1 })).toBeVisible();
}

const section = (page: Page, name: string) => page.getByRole('region', { name });

test('name, password and sessions from the account page', async ({ page, browser, consoleErrors }) => {
  consoleErrors.allow(failedRequest(400, '/api/account/password'));
  const account = await signUpViaApi(page, { name: 'Marta Cuenta' });
  // A second browser signed in to the same account.
  const other = await browser.newContext({ userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0' });
  const login = await other.request.post('/api/auth/login', { data: { email: account.email, password: account.password } });
  expect(login.status()).toBe(200);

  await openAccountPage(page, 'Marta Cuenta');
  const name = section(page, 'Nombre');
  await name.getByLabel('Nombre').fill('Marta Nueva');
  await name.getByRole('button', { name: 'Guardar nombre' }).click();
  await expect(name.getByText('Nombre guardado')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Menú de Marta Nueva' })).toBeVisible();

  const sessions = section(page, 'Sesiones');
  await expect(sessions.getByRole('listitem')).toHaveCount(2);
  await expect(sessions.getByText('Esta sesión')).toBeVisible();
  await expect(sessions.getByText('Firefox en Linux')).toBeVisible();

  const password = section(page, 'Contraseña');
  await password.getByLabel('Contraseña actual').fill('no-es-la-mia');
  await password.getByLabel('Contraseña nueva').fill('nueva-clave-e2e');
  await password.getByRole('button', { name: 'Cambiar contraseña' }).click();
  await expect(password.getByText('La contraseña no es correcta')).toBeVisible();
  await password.getByLabel('Contraseña actual').fill(account.password);
  await password.getByRole('button', { name: 'Cambiar contraseña' }).click();
  await expect(password.getByText('Contraseña cambiada. Las demás sesiones se han cerrado y tus tokens de API se han revocado.')).toBeVisible();
  // The other browser is out; this one is the only session left.
  await expect(sessions.getByRole('listitem')).toHaveCount(1);
  const after = await other.request.get('/api/auth/session');
  expect(await after.json()).toEqual({ user: null });
  await other.close();
});

test('two-factor: set up with the QR, recovery codes once, and the code asked at login', async ({ page }) => {
  const account = await signUpViaApi(page, { name: 'Teo Dos Pasos' });
  await openAccountPage(page, 'Teo Dos Pasos');
  const totp = section(page, 'Verificación en dos pasos');
  await totp.getByRole('button', { name: 'Activar la verificación en dos pasos' }).click();
  await expect(totp.getByRole('img', { name: 'Código QR para la aplicación de autenticación' })).toBeVisible();
  const secret = (await totp.locator('code').textContent())!.trim();
  const codeAt = (at: number) => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: at });
  await totp.getByLabel('Código de la aplicación').fill(codeAt(Date.now()));
  await totp.getByRole('button', { name: 'Activar' }).click();
  await expect(totp.getByText('Verificación en dos pasos activada.')).toBeVisible();
  const codes = totp.getByRole('list', { name: 'Códigos de recuperación' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  const recoveryCodes = await codes.allTextContents();
  // Kept by a download (a text file with every code) or a copy, then put away.
  const downloading = page.waitForEvent('download');
  await totp.getByRole('link', { name: 'Descargar los códigos' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('corto-codigos-de-recuperacion.txt');
  const saved = await readFile((await download.path())!, 'utf8');
  for (const code of recoveryCodes) expect(saved).toContain(code);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await totp.getByRole('button', { name: 'Copiar los códigos' }).click();
  await expect(totp.getByRole('button', { name: 'Códigos copiados' })).toBeVisible();
  expect(await page.evaluate('navigator.clipboard.readText()')).toBe(recoveryCodes.join('\n'));
  await totp.getByRole('button', { name: 'Ya los he guardado' }).click();
  await expect(totp.getByRole('list', { name: 'Códigos de recuperación' })).toHaveCount(0);
  await expect(totp.getByText('La verificación en dos pasos está activada.')).toBeVisible();

  await page.getByRole('button', { name: 'Menú de Teo Dos Pasos' }).click();
  await page.getByRole('menuitem', { name: 'Cerrar sesión' }).click();
  // Signed out on /cuenta: the sign-in comes back here.
  await expect(page).toHaveURL(/\/auth\?next=%2Fcuenta$/);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Contraseña').fill(account.password);
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
  // The code of the set-up is spent: the app's next one.
  await page.getByLabel('Código').fill(codeAt(Date.now() + 30_000));
  await page.getByRole('button', { name: 'Verificar' }).click();
  await expect(page).toHaveURL(/\/cuenta$/);
  await expect(page.getByRole('button', { name: 'Menú de Teo Dos Pasos' })).toBeVisible();
  await expect(section(page, 'Verificación en dos pasos').getByText('La verificación en dos pasos está activada.')).toBeVisible();
});

test('leaving: the confirmation needs the password, then the account and its links are gone', async ({ page, consoleErrors }) => {
  consoleErrors.allow(failedRequest(400, '/api/account'));
  const account = await signUpViaApi(page, { name: 'Iris Se Va' });
  const created = await page.request.post('/api/links', { headers: sameOrigin, data: { title: 'Mío', longUrl: 'https://example.com/mio' } });
  const { link } = await created.json();
  expect((await page.request.get(`/${link.shortCode}`, { maxRedirects: 0 })).status()).toBe(302);

  await openAccountPage(page, 'Iris Se Va');
  await section(page, 'Eliminar mi cuenta').getByRole('button', { name: 'Eliminar mi cuenta' }).click();
  const dialog = page.getByRole('dialog', { name: '¿Eliminar tu cuenta?' });
  await dialog.getByLabel('Contraseña').fill('equivocada');
  await dialog.getByRole('button', { name: 'Eliminar definitivamente' }).click();
  await expect(dialog.getByText('La contraseña no es correcta')).toBeVisible();
  await dialog.getByLabel('Contraseña').fill(account.password);
  await dialog.getByRole('button', { name: 'Eliminar definitivamente' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('link', { name: 'Iniciar sesión' }).first()).toBeVisible();
  expect((await page.request.get(`/${link.shortCode}`, { maxRedirects: 0 })).status()).toBe(404);
});

test('a forged reset link says so and offers another', async ({ page, consoleErrors }) => {
  consoleErrors.allow(failedRequest(400, '/api/auth/password-reset/confirm'));
  await page.goto('/auth/restablecer?token=inventado');
  await page.getByLabel('Contraseña nueva').fill('nueva-clave-e2e');
  await page.getByRole('button', { name: 'Guardar la contraseña' }).click();
  await expect(page.getByText('Este enlace para restablecer la contraseña no es válido, ya se usó o ha caducado. Pide otro.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Pedir otro enlace' })).toHaveAttribute('href', '/auth/recuperar');
});
