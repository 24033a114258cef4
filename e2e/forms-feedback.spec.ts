import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { Secret, TOTP } from 'otpauth';
import { accountMessages } from '../common/account/account-messages';
import { adminMessages } from '../common/admin/admin-messages';
import { networkMessages } from '../common/messages';
import { qrMessages } from '../common/links/qr-options';
import { expect, failedRequest, test } from './fixtures';
import { picturePng, sameOrigin, signUpViaApi, uniqueEmail } from './helpers/accounts';

// What a form says after it is sent, and where: a failure that belongs to no field beside the
// button that was pressed (in view, even in a long dialog on a phone), no stale success beside a
// new problem, file pickers in Spanish, visitor pages that lead to a filled-in report.

const offline = /ERR_INTERNET_DISCONNECTED/;

/** Axe's moderate, serious and critical findings on the page as it is now (as a11y.spec judges them). */
async function blockingAxeFindings(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  return results.violations
    .filter((violation) => ['moderate', 'serious', 'critical'].includes(violation.impact ?? ''))
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
const phone = { width: 375, height: 667 };

async function newLink(page: Page, data: Record<string, unknown>) {
  const response = await page.request.post('/api/links', { headers: sameOrigin, data });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()).link as { id: number; shortCode: string; shortLink: string };
}

test('creating and editing with the server unreachable: the message shows beside the button, in view, on a phone', async ({ page, consoleErrors }) => {
  consoleErrors.allow(offline);
  await page.setViewportSize(phone);
  await signUpViaApi(page, { name: 'Sin Red' });
  const link = await newLink(page, { title: 'Para editar', longUrl: 'https://example.com/editar' });
  await page.goto('/dashboard?createNew=https%3A%2F%2Fexample.com%2Funa-direccion-larga');
  const create = page.getByRole('dialog', { name: 'Crear link' });
  await create.getByLabel('Nombre del link').fill('Sin conexión');
  await page.route('**/api/links', (route) => (route.request().method() === 'POST' ? route.abort('internetdisconnected') : route.fallback()));
  const crear = create.getByRole('button', { name: 'Crear' });
  await crear.click();
  const createAlert = create.getByRole('alert');
  await expect(createAlert).toContainText(networkMessages.unreachable);
  await expect(createAlert).toBeInViewport();
  // Right above the button, not at the top of the scrolled dialog.
  const [alertBox, buttonBox] = [await createAlert.boundingBox(), await crear.boundingBox()];
  expect(buttonBox!.y - (alertBox!.y + alertBox!.height)).toBeLessThan(80);
  await create.getByRole('button', { name: 'Cerrar' }).click();

  await page.goto(`/link/${link.id}`);
  await page.getByRole('button', { name: 'Editar link' }).click();
  const edit = page.getByRole('dialog', { name: 'Editar link' });
  await page.route('**/api/links/*', (route) => (route.request().method() === 'PATCH' ? route.abort('internetdisconnected') : route.fallback()));
  await edit.getByRole('button', { name: 'Guardar' }).click();
  await expect(edit.getByRole('alert')).toContainText(networkMessages.unreachable);
  await expect(edit.getByRole('alert')).toBeInViewport();
});

test('a success says so in green, and never stays beside a later problem', async ({ page, consoleErrors }) => {
  consoleErrors.allow(failedRequest(400, '/api/account/name'));
  await signUpViaApi(page, { name: 'Nora Nombre' });
  const link = await newLink(page, { title: 'Verde', longUrl: 'https://example.com/verde' });
  await page.goto(`/link/${link.id}`);
  await page.getByRole('button', { name: 'Editar link' }).click();
  await page.getByRole('dialog', { name: 'Editar link' }).getByLabel('Nombre del link').fill('Verde claro');
  await page.getByRole('dialog', { name: 'Editar link' }).getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Cambios guardados.' })).toHaveAttribute('data-tone', 'success');
  await expect(page.getByRole('alert').filter({ hasText: 'Cambios guardados.' })).toHaveCount(0);

  await page.goto('/cuenta');
  const nameSection = page.getByRole('region', { name: 'Nombre', exact: true });
  await nameSection.getByLabel('Nombre').fill('Nora Nueva');
  await nameSection.getByRole('button', { name: 'Guardar nombre' }).click();
  await expect(nameSection.getByText('Nombre guardado')).toBeVisible();
  await nameSection.getByLabel('Nombre').fill('');
  await expect(nameSection.getByText('Nombre guardado')).toHaveCount(0);
  await nameSection.getByRole('button', { name: 'Guardar nombre' }).click();
  await expect(nameSection.locator('#account-name-error')).toBeVisible();
  await expect(nameSection.getByText('Nombre guardado')).toHaveCount(0);
});

test('the profile picture and the import use the Spanish picker, and a new picture is previewed before it is sent', async ({ page }) => {
  await signUpViaApi(page, { name: 'Pía Foto' });
  await page.goto('/cuenta');
  const pictureSection = page.getByRole('region', { name: 'Foto de perfil' });
  await expect(pictureSection.getByText('Elegir imagen')).toBeVisible();
  await expect(pictureSection.getByText('Sin imagen elegida')).toBeVisible();
  await pictureSection.getByLabel('Nueva foto').setInputFiles({ name: 'mi-foto-nueva.png', mimeType: 'image/png', buffer: await picturePng(64) });
  await expect(pictureSection.getByText('mi-foto-nueva.png')).toBeVisible();
  const preview = pictureSection.getByRole('img', { name: 'Vista previa de la foto nueva' });
  await expect(preview).toHaveAttribute('src', /^data:image\/png;base64,/);
  await pictureSection.getByRole('button', { name: 'Cambiar foto' }).click();
  await expect(pictureSection.getByText('Foto cambiada')).toBeVisible();
  await expect(pictureSection.getByRole('img', { name: 'Tu foto de perfil' })).toHaveAttribute('src', /^\/storage\//);

  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Importar' }).click();
  const dialog = page.getByRole('dialog', { name: 'Importar links' });
  await expect(dialog.getByText('Elegir archivo')).toBeVisible();
  await expect(dialog.getByText('Sin archivo elegido')).toBeVisible();
  await dialog.getByLabel('Archivo CSV').setInputFiles({ name: 'mis-links.csv', mimeType: 'text/csv', buffer: Buffer.from('title,longUrl\nUno,https://example.com/1\n') });
  await expect(dialog.getByText('mis-links.csv')).toBeVisible();
  // The picker is reached with the keyboard like any control.
  await dialog.getByLabel('Archivo CSV').focus();
  await expect(dialog.getByLabel('Archivo CSV')).toBeFocused();
});

test('in the QR dialog a message under one input leaves its neighbour in line', async ({ page }) => {
  await page.setViewportSize(phone);
  await signUpViaApi(page);
  const link = await newLink(page, { title: 'Cartel', longUrl: 'https://example.com/cartel' });
  await page.goto(`/link/${link.id}`);
  await page.getByRole('button', { name: qrMessages.open }).first().click();
  const dialog = page.getByRole('dialog', { name: qrMessages.dialogTitle });
  const size = dialog.getByLabel(qrMessages.sizeLabel);
  await size.fill('5');
  await expect(size).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByText(qrMessages.size)).toBeVisible();
  // Every pair side by side stays in line: with a message under one, and with a label that wraps on a phone.
  for (const [left, right] of [
    [qrMessages.formatLabel, qrMessages.eccLabel],
    [qrMessages.sizeLabel, qrMessages.marginLabel],
    [qrMessages.colorLabel, qrMessages.backgroundLabel],
  ]) {
    const [leftBox, rightBox] = [await dialog.getByLabel(left!).boundingBox(), await dialog.getByLabel(right!).boundingBox()];
    expect(Math.abs(leftBox!.y - rightBox!.y), `${left} and ${right}`).toBeLessThan(1);
  }
});

test('a visitor page leads to the report form with the address filled in, and its password form leaves room below', async ({ page, browser }) => {
  await signUpViaApi(page);
  const paused = await newLink(page, { title: 'Pausado', longUrl: 'https://example.com/pausado' });
  expect((await page.request.patch(`/api/links/${paused.id}`, { headers: sameOrigin, data: { paused: true } })).status()).toBe(200);
  const locked = await newLink(page, { title: 'Con clave', longUrl: 'https://example.com/clave' });
  expect((await page.request.patch(`/api/links/${locked.id}`, { headers: sameOrigin, data: { password: 'abre-sesamo' } })).status()).toBe(200);

  const visitor = await browser.newContext();
  const visitorPage = await visitor.newPage();
  await visitorPage.goto(`/${locked.shortCode}`);
  const button = visitorPage.getByRole('button', { name: 'Continuar' });
  const below = visitorPage.getByRole('link', { name: 'Denunciar este link' });
  const [buttonBox, linksBox] = [await button.boundingBox(), await below.boundingBox()];
  expect(linksBox!.y - (buttonBox!.y + buttonBox!.height)).toBeGreaterThanOrEqual(16);

  await visitorPage.goto(`/${paused.shortCode}`);
  await visitorPage.getByRole('link', { name: 'Denunciar este link' }).click();
  await expect(visitorPage.getByRole('heading', { name: 'Denunciar este link' })).toBeVisible();
  await expect(visitorPage.getByLabel('Link que denuncias')).toHaveValue(paused.shortLink);
  await visitor.close();
});

test('the 404 page offers no report for a link that does not exist', async ({ page, consoleErrors }) => {
  consoleErrors.allow(failedRequest(404, '/nx9nx9'));
  await page.goto('/nx9nx9');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Página no encontrada');
  await expect(page.getByRole('link', { name: 'Denunciar este link' })).toHaveCount(0);
});

test('deleting the account lands on the landing page, which says it was deleted', async ({ page }) => {
  const account = await signUpViaApi(page, { name: 'Ulises Adiós' });
  await page.goto('/cuenta');
  await page.getByRole('button', { name: 'Eliminar mi cuenta' }).click();
  const dialog = page.getByRole('dialog', { name: '¿Eliminar tu cuenta?' });
  await dialog.getByLabel('Contraseña').fill(account.password);
  await dialog.getByRole('button', { name: 'Eliminar definitivamente' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('status').filter({ hasText: 'Tu cuenta se ha eliminado' })).toBeVisible();
});

test('an invitation link says it is one, fills in its e-mail, and a wrong e-mail is told which one it is for', async ({ page, browser, consoleErrors }) => {
  consoleErrors.allow(failedRequest(400, '/api/auth/register'));
  const admin = await signUpViaApi(page, { name: 'Jefa Invita', email: uniqueEmail('jefa-invita') });
  execFileSync(process.execPath, ['dist/server/corto.js', 'admin', admin.email], {
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR ?? '', DATABASE_URL: '', LOG_LEVEL: 'silent' },
  });
  const invited = uniqueEmail('invitada');
  const made = await page.request.post('/api/admin/invites', { headers: sameOrigin, data: { email: invited } });
  expect(made.status(), await made.text()).toBe(201);
  const { url } = (await made.json()).invite as { url: string };
  const setSignup = async (signup: string) => {
    const settings = await (await page.request.get('/api/admin/settings')).json();
    const saved = await page.request.put('/api/admin/settings', { headers: sameOrigin, data: { signup, blockedDomains: settings.blockedDomains } });
    expect(saved.status(), await saved.text()).toBe(200);
  };
  await setSignup('invite');
  const visitor = await browser.newContext();
  try {
    const visitorPage = await visitor.newPage();
    await visitorPage.goto(url);
    await expect(visitorPage.getByRole('tab', { name: 'Registrarse' })).toHaveAttribute('aria-selected', 'true');
    await expect(visitorPage.getByText(`Te han invitado a Corto. La invitación es para ${invited}`)).toBeVisible();
    await expect(visitorPage.getByLabel('Email')).toHaveValue(invited);

    await visitorPage.getByLabel('Nombre').fill('Otra Persona');
    await visitorPage.getByLabel('Email').fill(uniqueEmail('otra'));
    await visitorPage.getByLabel('Contraseña').fill('secreto-e2e');
    await visitorPage.getByLabel('Foto de perfil').setInputFiles({ name: 'yo.png', mimeType: 'image/png', buffer: await picturePng() });
    await visitorPage.getByRole('button', { name: 'Crear cuenta' }).click();
    const refusal = visitorPage.getByRole('alert').filter({ hasText: adminMessages.inviteOtherEmail(invited) });
    await expect(refusal).toBeVisible();
    await expect(refusal).toBeInViewport();
  } finally {
    await visitor.close();
    await setSignup('open');
  }
});

test('axe finds nothing blocking on the new parts: the picker and its preview, the recovery codes, a confirmation', async ({ page }) => {
  await signUpViaApi(page, { name: 'Axe Cuenta' });
  await page.goto('/cuenta');
  await page.getByLabel('Nueva foto').setInputFiles({ name: 'nueva.png', mimeType: 'image/png', buffer: await picturePng(64) });
  await expect(page.getByRole('img', { name: 'Vista previa de la foto nueva' })).toBeVisible();
  const totp = page.getByRole('region', { name: 'Verificación en dos pasos' });
  await totp.getByRole('button', { name: 'Activar la verificación en dos pasos' }).click();
  const secret = (await totp.locator('code').textContent())!.trim();
  await totp.getByLabel('Código de la aplicación').fill(new TOTP({ secret: Secret.fromBase32(secret) }).generate());
  await totp.getByRole('button', { name: 'Activar' }).click();
  await expect(totp.getByRole('button', { name: 'Ya los he guardado' })).toBeVisible();
  expect(await blockingAxeFindings(page)).toEqual([]);

  const created = await page.request.post('/api/tokens', { headers: sameOrigin, data: { name: 'CI', scope: 'read' } });
  expect(created.status(), await created.text()).toBe(201);
  await page.goto('/cuenta/tokens');
  await page.getByRole('button', { name: 'Revocar CI' }).click();
  await expect(page.getByRole('dialog', { name: '¿Revocar el token «CI»?' })).toBeVisible();
  expect(await blockingAxeFindings(page)).toEqual([]);
});

test('ending sessions with the server unreachable: the message is scrolled into view from the bottom of a long list', async ({ page, consoleErrors }) => {
  consoleErrors.allow(offline);
  await page.setViewportSize(phone);
  const account = await signUpViaApi(page, { name: 'Muchas Sesiones' });
  // Each sign-in is a session of its own; the page keeps the last one.
  for (let i = 0; i < 6; i++) {
    const login = await page.request.post('/api/auth/login', { headers: sameOrigin, data: { email: account.email, password: account.password } });
    expect(login.status(), await login.text()).toBe(200);
  }
  await page.goto('/cuenta');
  const sessions = page.getByRole('region', { name: 'Sesiones' });
  await expect(sessions.getByRole('listitem')).toHaveCount(7);
  await page.route('**/api/account/sessions', (route) => (route.request().method() === 'DELETE' ? route.abort('internetdisconnected') : route.fallback()));
  await sessions.getByRole('button', { name: 'Cerrar las demás' }).click();
  const failure = sessions.getByRole('alert');
  await expect(failure).toHaveText(networkMessages.unreachable);
  await expect(failure).toBeInViewport();
});

test('a recovery code used before is refused saying so, not as a wrong code', async ({ page, consoleErrors }) => {
  consoleErrors.allow(failedRequest(400, '/api/auth/totp'));
  const account = await signUpViaApi(page, { name: 'Rita Recupera' });
  const setup = (await (await page.request.post('/api/account/totp', { headers: sameOrigin })).json()) as { secret: string };
  const confirmed = await page.request.post('/api/account/totp/confirm', {
    headers: sameOrigin,
    data: { code: new TOTP({ secret: Secret.fromBase32(setup.secret) }).generate() },
  });
  expect(confirmed.status(), await confirmed.text()).toBe(200);
  const [code] = ((await confirmed.json()) as { recoveryCodes: string[] }).recoveryCodes;
  const signInWith = async (second: string) => {
    // Off the dashboard first: none of its own requests may meet the signed-out session (a 401).
    await page.goto('about:blank');
    await page.request.post('/api/auth/logout', { headers: sameOrigin });
    await page.goto('/auth');
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Contraseña').fill(account.password);
    await page.getByRole('button', { name: 'Iniciar sesión' }).click();
    await page.getByLabel('Código').fill(second);
    await page.getByRole('button', { name: 'Verificar' }).click();
  };
  await signInWith(code!);
  await expect(page).toHaveURL(/\/dashboard/);
  await signInWith(code!);
  await expect(page.locator('#login-code-error')).toHaveText(accountMessages.recoveryCodeUsed);
});
