import { expect, test } from './fixtures';
import { signUpViaApi, uniqueEmail } from './helpers/accounts';
import { acceptViaApi, createTeamViaApi, inviteViaApi } from './helpers/workspaces';

// A team's members page: inviting by e-mail (no mail server here, so the link to copy), pending
// invitations revoked after a question, a role changed, a member removed after a question, and
// what a member who may not manage sees instead of the controls.

test('invites with a link to copy, revokes, changes a role and removes a member', async ({ page, browser, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signUpViaApi(page, { name: 'Olga Dueña' });
  const team = await createTeamViaApi(page, 'Ventas');
  await page.goto(`/w/${team.slug}`);
  await page.getByRole('navigation', { name: 'Espacio de trabajo' }).getByRole('link', { name: 'Miembros' }).click();
  await expect(page).toHaveURL(`/w/${team.slug}/miembros`);
  await expect(page.getByRole('heading', { level: 1, name: 'Miembros de «Ventas»' })).toBeVisible();

  // The owner is listed, with their role fixed (nobody changes their own here) and the reason given.
  const members = page.getByRole('region', { name: 'Miembros', exact: true });
  await expect(members.getByText('Olga Dueña')).toBeVisible();
  await expect(members.getByLabel('Rol de Olga Dueña')).toBeDisabled();
  await expect(members.getByLabel('Rol de Olga Dueña')).toHaveAccessibleDescription('No puedes cambiar tu propio rol.');

  // Invite: a bad address is refused in Spanish; a good one gives the link to copy.
  const invite = page.getByRole('form', { name: 'Invitar a una persona' });
  await invite.getByLabel('Correo electrónico').fill('no-es-un-correo');
  await invite.getByRole('button', { name: 'Invitar' }).click();
  await expect(invite.getByText('Escribe una dirección de correo válida')).toBeVisible();
  const guest = uniqueEmail('pablo');
  await invite.getByLabel('Correo electrónico').fill(guest);
  await invite.getByLabel('Rol').selectOption('editor');
  await invite.getByRole('button', { name: 'Invitar' }).click();
  const sent = page.getByRole('status').filter({ hasText: guest });
  await expect(sent).toContainText('Copia el enlace y envíaselo');
  const url = (await sent.locator('code').textContent())!;
  expect(url).toMatch(/\/invitacion\/[^/]+$/);
  await sent.getByRole('button', { name: `Copiar el enlace de la invitación para ${guest}` }).click();
  await expect(sent.getByRole('button', { name: 'Enlace copiado' })).toBeVisible();
  expect(await page.evaluate('navigator.clipboard.readText()')).toBe(url);

  // Pending, and revoked only after a question.
  const pending = page.getByRole('region', { name: 'Invitaciones pendientes' });
  await expect(pending.getByText(guest)).toBeVisible();
  await pending.getByRole('button', { name: `Revocar la invitación de ${guest}` }).click();
  const confirmRevoke = page.getByRole('dialog', { name: `¿Revocar la invitación de ${guest}?` });
  await expect(confirmRevoke.getByRole('button', { name: 'Cancelar' })).toBeFocused();
  await confirmRevoke.getByRole('button', { name: 'Revocar' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Invitación de ${guest} revocada.` })).toBeVisible();
  await expect(pending.getByText('No hay invitaciones pendientes.')).toBeVisible();

  // Someone joins (through the API, in a browser of their own); the owner changes their role.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  const pablo = await signUpViaApi(otherPage, { name: 'Pablo Miembro', email: uniqueEmail('pablo') });
  await acceptViaApi(otherPage, await inviteViaApi(page, team.slug, pablo.email, 'editor'));
  await page.reload();
  const role = members.getByLabel('Rol de Pablo Miembro');
  await expect(role).toHaveValue('editor');
  await role.selectOption('viewer');
  await expect(page.getByRole('status').filter({ hasText: 'Pablo Miembro ahora es Lector.' })).toBeVisible();
  await expect(role).toHaveValue('viewer');

  // What a reader sees on the same page: no invitation form, no controls, and why.
  await otherPage.goto(`/w/${team.slug}/miembros`);
  await expect(otherPage.getByRole('form', { name: 'Invitar a una persona' })).toHaveCount(0);
  await expect(otherPage.getByText('Solo los administradores y propietarios del espacio pueden hacer esto.').first()).toBeVisible();
  await expect(otherPage.getByLabel('Rol de Olga Dueña')).toBeDisabled();
  await expect(otherPage.getByRole('button', { name: /^Quitar a/ })).toHaveCount(0);

  // Removing asks first; the member is gone after.
  await members.getByRole('button', { name: 'Quitar a Pablo Miembro' }).click();
  const confirmRemove = page.getByRole('dialog', { name: '¿Quitar a Pablo Miembro del espacio?' });
  await expect(confirmRemove).toContainText('Los enlaces que creó se quedan en el espacio.');
  await confirmRemove.getByRole('button', { name: 'Quitar' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Pablo Miembro ya no es miembro de «Ventas».' })).toBeVisible();
  await expect(members.getByText('Pablo Miembro')).toHaveCount(0);

  // The activity page tells it, newest first.
  await page.getByRole('navigation', { name: 'Espacio de trabajo' }).getByRole('link', { name: 'Actividad' }).click();
  const entries = page.getByRole('list', { name: 'Actividad, lo más reciente primero' }).getByRole('listitem');
  await expect(entries.first()).toContainText('Olga Dueña quitó a Pablo Miembro del espacio');
  await expect(page.getByText('Olga Dueña cambió el rol de Pablo Miembro a Lector')).toBeVisible();
  await expect(page.getByText(`Olga Dueña revocó la invitación de ${guest}`)).toBeVisible();
  await other.close();
});

test('the last owner cannot leave, and says so', async ({ page }) => {
  await signUpViaApi(page, { name: 'Única Dueña' });
  const team = await createTeamViaApi(page, 'Solo Yo');
  await page.goto(`/w/${team.slug}/miembros`);
  const leave = page.getByRole('region', { name: 'Dejar el espacio' });
  await expect(leave.getByRole('button', { name: 'Dejar el espacio' })).toBeDisabled();
  await expect(leave.getByText(/necesita al menos un propietario/)).toBeVisible();
});
