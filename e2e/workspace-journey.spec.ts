import { request as playwrightRequest } from '@playwright/test';
import { expect, test } from './fixtures';
import { picturePng, sameOrigin, signUpViaApi, uniqueEmail } from './helpers/accounts';
import { acceptViaApi, createTeamViaApi, inviteViaApi, switcher } from './helpers/workspaces';

// The team's journey, in separate browsers: the owner invites an editor, who accepts (signing in
// first) and creates a link in the team; a reader sees it and cannot change it; the owner removes
// the editor; the link stays, still saying who made it.

test('an invited editor creates a team link that a reader sees and the team keeps', async ({ page: owner, browser, baseURL }) => {
  // Three browsers and a dozen screens: over 30 s on a slow machine.
  test.slow();
  await signUpViaApi(owner, { name: 'Olivia Propietaria' });
  const team = await createTeamViaApi(owner, 'Campañas');

  // The editor has an account already, and is signed out in their own browser.
  const editorAccount = { name: 'Eduardo Editor', email: uniqueEmail('eduardo'), password: 'secreto-eduardo' };
  const api = await playwrightRequest.newContext({ baseURL });
  const registered = await api.post('/api/auth/register', {
    headers: sameOrigin,
    multipart: { ...editorAccount, profileImage: { name: 'e.png', mimeType: 'image/png', buffer: await picturePng() } },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  await api.dispose();

  // The owner invites them from the members page and copies the link.
  await owner.goto(`/w/${team.slug}/miembros`);
  const inviteForm = owner.getByRole('form', { name: 'Invitar a una persona' });
  await inviteForm.getByLabel('Correo electrónico').fill(editorAccount.email);
  await inviteForm.getByLabel('Rol').selectOption('editor');
  await inviteForm.getByRole('button', { name: 'Invitar' }).click();
  const url = (await owner.getByRole('status').filter({ hasText: editorAccount.email }).locator('code').textContent())!;

  // The editor opens it signed out: what it offers, and a way in that comes back here.
  const editorContext = await browser.newContext();
  const editor = await editorContext.newPage();
  await editor.goto(new URL(url).pathname);
  await expect(editor.getByText('Olivia Propietaria te invita a unirte a «Campañas» como Editor.')).toBeVisible();
  await expect(editor.getByText(editorAccount.email, { exact: true })).toBeVisible();
  await expect(editor.getByRole('link', { name: 'Crea tu cuenta' })).toBeVisible();
  await editor.getByRole('link', { name: 'Inicia sesión' }).click();
  await editor.getByLabel('Email').fill(editorAccount.email);
  await editor.getByLabel('Contraseña').fill(editorAccount.password);
  await editor.getByRole('button', { name: 'Iniciar sesión' }).click();
  await expect(editor).toHaveURL(new URL(url).pathname);
  await editor.getByRole('button', { name: 'Aceptar invitación' }).click();
  await expect(editor).toHaveURL(`/w/${team.slug}`);
  await expect(editor.getByRole('status').filter({ hasText: 'Ya eres miembro de «Campañas».' })).toBeVisible();
  await expect(switcher(editor)).toHaveAccessibleName('Espacio de trabajo: Campañas. Cambiar de espacio');

  // An invitation serves once.
  await editor.goto(new URL(url).pathname);
  await expect(editor.getByText('Esta invitación ya se ha usado.')).toBeVisible();

  // The editor creates a link in the team; its page stays in the team's address.
  await editor.goto(`/w/${team.slug}`);
  await editor.getByRole('button', { name: 'Crear link' }).click();
  const dialog = editor.getByRole('dialog', { name: 'Crear link' });
  await dialog.getByLabel('Nombre del link').fill('Campaña de primavera');
  await dialog.getByLabel('URL original').fill('https://example.com/primavera');
  await dialog.getByRole('button', { name: 'Crear' }).click();
  await expect(editor).toHaveURL(new RegExp(`/w/${team.slug}/link/\\d+$`));
  await expect(editor.getByRole('heading', { level: 1, name: 'Campaña de primavera' })).toBeVisible();
  await expect(editor.getByText('por Eduardo Editor')).toBeVisible();
  // Not in the editor's personal workspace.
  await editor.goto('/dashboard');
  await expect(editor.getByText('Todavía no tienes links.')).toBeVisible();

  // A reader joins and sees it, with no way to change it, and why.
  const readerContext = await browser.newContext();
  const reader = await readerContext.newPage();
  const readerAccount = await signUpViaApi(reader, { name: 'Rita Lectora' });
  await acceptViaApi(reader, await inviteViaApi(owner, team.slug, readerAccount.email, 'viewer'));
  await reader.goto(`/w/${team.slug}`);
  await expect(reader.getByRole('heading', { level: 1, name: 'Campañas' })).toBeVisible();
  await expect(reader.getByRole('link', { name: 'Campaña de primavera' })).toBeVisible();
  await expect(reader.getByText('creado por Eduardo Editor')).toBeVisible();
  await expect(reader.getByText('Tu rol en este espacio es de lector: puedes ver los enlaces, no cambiarlos.')).toBeVisible();
  await expect(reader.getByRole('button', { name: 'Crear link' })).toHaveCount(0);
  await expect(reader.getByRole('button', { name: /Editar/ })).toHaveCount(0);
  await expect(reader.getByRole('button', { name: /Eliminar/ })).toHaveCount(0);
  await reader.getByRole('link', { name: 'Campaña de primavera' }).click();
  await expect(reader).toHaveURL(new RegExp(`/w/${team.slug}/link/\\d+$`));
  await expect(reader.getByRole('heading', { level: 1, name: 'Campaña de primavera' })).toBeVisible();
  await expect(reader.getByRole('button', { name: /Editar/ })).toHaveCount(0);

  // The creator filter finds it under the editor's name.
  await reader.goto(`/w/${team.slug}`);
  await reader.getByLabel('Filtrar por creador').selectOption({ label: 'Olivia Propietaria' });
  await expect(reader.getByText('Ningún link coincide con el filtro.')).toBeVisible();
  await reader.getByLabel('Filtrar por creador').selectOption({ label: 'Eduardo Editor' });
  await expect(reader.getByRole('link', { name: 'Campaña de primavera' })).toBeVisible();

  // The owner removes the editor, after a question.
  await owner.reload();
  await owner.getByRole('button', { name: 'Quitar a Eduardo Editor' }).click();
  await owner.getByRole('dialog', { name: '¿Quitar a Eduardo Editor del espacio?' }).getByRole('button', { name: 'Quitar' }).click();
  await expect(owner.getByRole('status').filter({ hasText: 'Eduardo Editor ya no es miembro de «Campañas».' })).toBeVisible();

  // The link stays in the team, still saying who made it.
  await reader.goto(`/w/${team.slug}`);
  await expect(reader.getByRole('link', { name: 'Campaña de primavera' })).toBeVisible();
  await expect(reader.getByText('creado por Eduardo Editor')).toBeVisible();
  await owner.goto(`/w/${team.slug}`);
  await expect(owner.getByRole('link', { name: 'Campaña de primavera' })).toBeVisible();
  // And the removed editor no longer reaches the team.
  await editor.goto(`/w/${team.slug}`);
  await expect(editor.getByRole('heading', { level: 1, name: 'Espacio de trabajo no encontrado.' })).toBeVisible();

  await editorContext.close();
  await readerContext.close();
});
