import { execFileSync } from 'node:child_process';
import { expect, test } from './fixtures';
import { sameOrigin, signUpViaApi, uniqueEmail } from './helpers/accounts';

// The operator's screens in a real browser: the admin finds a user and a link, disables them,
// closes sign-up, and a visitor reports a link. The admin is made so from the shell, as an operator
// does (`npm run corto -- admin`): ADMIN_EMAILS needs a verified address, and this server sends no mail.

const ADMIN = 'jefa-e2e@corto.test';

test('an admin moderates users and links, closes sign-up, and reads the reports and the log', async ({ page, browser, consoleErrors }) => {
  // One long journey through five screens.
  test.setTimeout(120_000);
  // A user with a link, in a browser context of their own.
  const userContext = await browser.newContext();
  const userPage = await userContext.newPage();
  const victim = await signUpViaApi(userPage, { name: 'Persona Moderada', email: uniqueEmail('moderada') });
  const created = await userPage.request.post('/api/links', {
    headers: sameOrigin,
    data: { title: 'Oferta sospechosa', longUrl: 'https://example.com/oferta-e2e' },
  });
  const link = (await created.json()).link as { shortCode: string; shortLink: string };

  // The admin: the avatar menu has 'Administración'; an ordinary user's has not.
  await userPage.goto('/dashboard');
  await userPage.getByRole('button', { name: /Menú de/ }).click();
  await expect(userPage.getByRole('menuitem', { name: 'Mis links' })).toBeVisible();
  await expect(userPage.getByRole('menuitem', { name: 'Administración' })).toHaveCount(0);

  const existing = await page.request.post('/api/auth/login', { headers: sameOrigin, data: { email: ADMIN, password: 'secreto-e2e' } });
  if (existing.status() !== 200) {
    await signUpViaApi(page, { name: 'Jefa', email: ADMIN });
    execFileSync(process.execPath, ['dist/server/corto.js', 'admin', ADMIN], {
      env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR ?? '', DATABASE_URL: '', LOG_LEVEL: 'silent' },
    });
  }
  await page.goto('/dashboard');
  await page.getByRole('button', { name: /Menú de/ }).click();
  await page.getByRole('menuitem', { name: 'Administración' }).click();
  await expect(page).toHaveURL(/\/admin\/usuarios$/);

  // Users: search, then disable.
  await page.getByRole('searchbox', { name: 'Buscar por email o nombre' }).fill(victim.email);
  await page.getByRole('button', { name: 'Buscar' }).click();
  const row = page.getByRole('list', { name: 'Usuarios' }).getByRole('listitem').filter({ hasText: victim.email });
  await expect(row).toContainText('Activo');
  // The app's own dialog (never the browser's): what it does, an optional reason, Cancelar.
  await row.getByRole('button', { name: 'Desactivar' }).click();
  const disableUser = page.getByRole('dialog', { name: `¿Desactivar la cuenta de ${victim.email}?` });
  await expect(disableUser).toContainText('todos sus links dejarán de funcionar');
  await disableUser.getByRole('button', { name: 'Cancelar' }).click();
  await expect(disableUser).toBeHidden();
  await expect(row.getByRole('button', { name: 'Desactivar' })).toBeFocused();
  await expect(row).toContainText('Activo');
  await row.getByRole('button', { name: 'Desactivar' }).click();
  await disableUser.getByLabel('Motivo (opcional)').fill('Cuenta de spam');
  await disableUser.getByRole('button', { name: 'Desactivar cuenta' }).click();
  await expect(disableUser).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: 'Usuario desactivado' })).toBeVisible();
  await expect(row).toContainText('Desactivado');
  const login = await userPage.request.post('/api/auth/login', { headers: sameOrigin, data: { email: victim.email, password: victim.password } });
  expect(login.status()).toBe(403);
  expect((await login.json()).error.message).toBe('Tu cuenta está desactivada');
  await row.getByRole('button', { name: 'Activar' }).click();
  await expect(row).toContainText('Activo');

  // Links: search by destination domain, disable with a reason: the visitor gets the 410 page.
  await page.getByRole('navigation', { name: 'Administración' }).getByRole('link', { name: 'Links' }).click();
  await page.getByRole('searchbox', { name: /Buscar por título/ }).fill('oferta-e2e');
  await page.getByRole('button', { name: 'Buscar' }).click();
  const linkRow = page.getByRole('list', { name: 'Links' }).getByRole('listitem').filter({ hasText: 'Oferta sospechosa' });
  await linkRow.getByRole('button', { name: 'Desactivar' }).click();
  const disableLink = page.getByRole('dialog', { name: '¿Desactivar este link?' });
  await disableLink.getByLabel('Motivo (opcional)').fill('Phishing');
  await disableLink.getByRole('button', { name: 'Desactivar' }).click();
  await expect(disableLink).toBeHidden();
  await expect(linkRow).toContainText('Desactivado: Phishing');
  const visit = await userPage.request.get(`/${link.shortCode}`, { maxRedirects: 0 });
  expect(visit.status()).toBe(410);
  await userPage.goto(`/${link.shortCode}`);
  await expect(userPage.getByRole('heading', { name: 'Este link ha sido desactivado' })).toBeVisible();

  // A visitor reports it from the error page's link.
  await userPage.getByRole('link', { name: 'Denunciar este link' }).click();
  await expect(userPage.getByRole('heading', { name: 'Denunciar este link' })).toBeVisible();
  await userPage.getByLabel('Link que denuncias').fill(link.shortLink);
  await userPage.getByLabel('Motivo').fill('Se hace pasar por mi banco');
  await userPage.getByRole('button', { name: 'Enviar denuncia' }).click();
  await expect(userPage.getByRole('status')).toContainText('Hemos recibido tu denuncia');

  // The navigation counts the open reports.
  const reportsTab = page.getByRole('navigation', { name: 'Administración' }).getByRole('link', { name: /Denuncias/ });
  await expect(reportsTab).toHaveAccessibleName(/Denuncias \d+ abiertas?/);
  await reportsTab.click();
  const openList = page.getByRole('list', { name: 'Denuncias abiertas' });
  const report = openList.getByRole('listitem').filter({ hasText: 'Se hace pasar por mi banco' });
  await expect(report).toContainText(victim.email);
  await expect(report).toContainText('https://example.com/oferta-e2e');
  await report.getByRole('button', { name: 'Activar', exact: true }).click();
  await expect(report).toContainText('Activo');
  // Handled: it leaves the open list for the handled one, saying who and when; it can be reopened.
  const openBefore = Number((await page.getByRole('tab', { name: /Abiertas/ }).textContent())?.match(/\d+/)?.[0]);
  await report.getByRole('button', { name: 'Resuelta' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Denuncia marcada como resuelta' })).toBeVisible();
  await expect(openList.getByText('Se hace pasar por mi banco')).toHaveCount(0);
  await expect(page.getByRole('tab', { name: /Abiertas/ })).toHaveText(`Abiertas (${openBefore - 1})`);
  await page.getByRole('tab', { name: 'Gestionadas' }).click();
  await expect(page).toHaveURL(/lista=gestionadas/);
  const handled = page.getByRole('list', { name: 'Denuncias gestionadas' }).getByRole('listitem').filter({ hasText: 'Se hace pasar por mi banco' });
  await expect(handled).toContainText(`Resuelta el `);
  await expect(handled).toContainText(`por ${ADMIN}`);
  await page.reload();
  await expect(page.getByRole('tab', { name: 'Gestionadas' })).toHaveAttribute('aria-selected', 'true');
  await handled.getByRole('button', { name: 'Reabrir' }).click();
  await expect(handled).toHaveCount(0);
  await page.getByRole('tab', { name: /Abiertas/ }).click();
  await openList.getByRole('listitem').filter({ hasText: 'Se hace pasar por mi banco' }).getByRole('button', { name: 'Descartada' }).click();
  await expect(openList.getByText('Se hace pasar por mi banco')).toHaveCount(0);

  // Settings: close sign-up; the register tab says so, and the API refuses.
  await page.getByRole('navigation', { name: 'Administración' }).getByRole('link', { name: 'Ajustes' }).click();
  await page.getByLabel('Cerrado: nadie puede crear cuentas').check();
  await page.getByRole('button', { name: 'Guardar ajustes' }).click();
  await expect(page.getByText('Ajustes guardados')).toBeVisible();
  const visitor = await browser.newContext();
  const visitorPage = await visitor.newPage();
  await visitorPage.goto('/auth');
  await visitorPage.getByRole('tab', { name: 'Registrarse' }).click();
  await expect(visitorPage.getByText('El registro está cerrado').first()).toBeVisible();
  await expect(visitorPage.getByRole('button', { name: 'Crear cuenta' })).toHaveCount(0);

  // Invitation only: an invitation link opens the register form.
  await page.getByLabel('Solo con invitación').check();
  await page.getByRole('button', { name: 'Guardar ajustes' }).click();
  await page.getByRole('button', { name: 'Crear invitación' }).click();
  const inviteUrl = await page.getByLabel('Enlace de invitación').inputValue();
  await visitorPage.goto(inviteUrl);
  await expect(visitorPage.getByRole('button', { name: 'Crear cuenta' })).toBeVisible();
  await page.getByLabel('Abierto: cualquiera puede crear una cuenta').check();
  await page.getByRole('button', { name: 'Guardar ajustes' }).click();
  await expect(page.getByText('Ajustes guardados').first()).toBeVisible();

  // The audit log lists what was done.
  await page.getByRole('navigation', { name: 'Administración' }).getByRole('link', { name: 'Registro' }).click();
  const log = page.getByRole('list', { name: 'Registro de acciones' }).getByRole('listitem');
  await expect(log.filter({ hasText: 'Desactivó el link' }).first()).toContainText('Motivo: Phishing');
  await expect(log.filter({ hasText: 'Desactivó la cuenta' }).first()).toContainText(victim.email);
  await expect(log.filter({ hasText: 'Desactivó la cuenta' }).first()).toContainText('Motivo: Cuenta de spam');
  await expect(log.filter({ hasText: 'Creó una invitación' }).first()).toBeVisible();
  await expect(log.filter({ hasText: 'Marcó una denuncia como resuelta' }).first()).toBeVisible();
  await expect(log.filter({ hasText: 'Descartó una denuncia' }).first()).toBeVisible();
  // The sign-up modes in words, never the codes.
  await expect(log.filter({ hasText: 'Cambió el registro' }).filter({ hasText: 'Solo con invitación' }).first()).toBeVisible();
  await expect(log.filter({ hasText: 'Cambió el registro' }).filter({ hasText: 'Cerrado' }).first()).toBeVisible();
  await expect(page.getByRole('list', { name: 'Registro de acciones' })).not.toContainText(/\b(open|closed|invite)\b/);

  expect(consoleErrors.seen).toEqual([]);
  await userContext.close();
  await visitor.close();
});

test('a non-admin sees no admin screen', async ({ page }) => {
  await signUpViaApi(page);
  await page.goto('/admin/usuarios');
  await expect(page.getByText('No tienes permiso para ver esta página.')).toBeVisible();
});
