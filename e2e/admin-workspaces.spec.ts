import type { Browser, Page } from '@playwright/test';
import { expect, failedRequest, test } from './fixtures';
import { type Account, sameOrigin, signUpViaApi, uniqueEmail } from './helpers/accounts';
import { signInAsAdmin } from './helpers/admin';
import { acceptViaApi, createTeamViaApi, inviteViaApi, uniqueSlug } from './helpers/workspaces';

// The operator's list of workspaces (/admin/espacios): every workspace with its counts, searched by
// name or slug; a team deleted after asking, its links gone at once; a personal one never offered
// for deletion, since it goes with its account.

interface Team {
  name: string;
  slug: string;
  owner: Account;
  ownerPage: Page;
  codes: string[];
}

const PERSON = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';

/** A team with two members and two links, one of them visited once: made by its owner, through the API. */
async function seedTeam(browser: Browser, label: string): Promise<Team> {
  const ownerPage = await (await browser.newContext()).newPage();
  const owner = await signUpViaApi(ownerPage, { name: `Dueña ${label} ${Date.now().toString(36)}`, email: uniqueEmail('duena-espacio') });
  const team = await createTeamViaApi(ownerPage, `Equipo ${label} ${Date.now().toString(36)}`, uniqueSlug('admin-espacio'));
  const memberPage = await (await browser.newContext()).newPage();
  const member = await signUpViaApi(memberPage, { email: uniqueEmail('miembro-espacio') });
  await acceptViaApi(memberPage, await inviteViaApi(ownerPage, team.slug, member.email, 'editor'));
  await memberPage.context().close();
  const codes: string[] = [];
  for (const title of ['Campaña uno', 'Campaña dos']) {
    const created = await ownerPage.request.post(`/api/links?workspace=${team.slug}`, {
      headers: sameOrigin,
      data: { title, longUrl: `https://example.com/${team.slug}/${codes.length}` },
    });
    expect(created.status(), await created.text()).toBe(201);
    codes.push(((await created.json()).link as { shortCode: string }).shortCode);
  }
  // A person's browser (Playwright's own agent says HeadlessChrome, counted as a bot, not a click).
  const visit = await ownerPage.request.get(`/${codes[0]}`, { maxRedirects: 0, headers: { 'user-agent': PERSON } });
  expect(visit.status()).toBe(302);
  return { ...team, owner, ownerPage, codes };
}

/** Waits until the visit is counted in the workspace's totals (clicks are written in batches). */
async function waitForClicks(page: Page, slug: string, clicks: number) {
  await expect
    .poll(async () => {
      const body = (await (await page.request.get(`/api/admin/workspaces?q=${slug}`)).json()) as { workspaces: { slug: string; clicks: number }[] };
      return body.workspaces.find((workspace) => workspace.slug === slug)?.clicks;
    })
    .toBe(clicks);
}

const cards = (page: Page) => page.getByRole('list', { name: 'Espacios de trabajo' }).getByRole('listitem');

async function search(page: Page, text: string) {
  const box = page.getByRole('searchbox', { name: 'Buscar por nombre o identificador' });
  await box.fill(text);
  await box.press('Enter');
  await expect(cards(page)).toHaveCount(1);
}

test('the operator finds a team with its counts, deletes it after asking, and its links stop at once', async ({ browser, page, consoleErrors }) => {
  test.setTimeout(90_000);
  const team = await seedTeam(browser, 'Admin');
  await signInAsAdmin(page);
  await waitForClicks(page, team.slug, 1);

  // The navigation has the screen.
  await page.goto('/admin/usuarios');
  await page.getByRole('navigation', { name: 'Administración' }).getByRole('link', { name: 'Espacios' }).click();
  await expect(page).toHaveURL(/\/admin\/espacios$/);
  await expect(page).toHaveTitle('Espacios de trabajo · Administración · Corto');

  // Found by its name, then by its slug, with what it holds.
  await search(page, team.name);
  const card = cards(page).filter({ hasText: `/w/${team.slug}` });
  await expect(card).toContainText(team.name);
  for (const fact of ['Tipo:Equipo', 'Miembros:2', 'Links:2', 'Clics:1', 'Alta:']) await expect(card).toContainText(fact);
  await page.getByRole('searchbox', { name: 'Buscar por nombre o identificador' }).fill('');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/admin\/espacios$/);
  await search(page, team.slug.toUpperCase());
  await expect(card).toBeVisible();

  // With the keyboard: the dialog names the team and says its links stop; Escape keeps everything.
  const remove = card.getByRole('button', { name: 'Eliminar' });
  await remove.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: `¿Eliminar el espacio «${team.name}»?` });
  await expect(dialog).toContainText(`Se eliminarán /w/${team.slug}, sus 2 links y sus estadísticas. Sus links dejarán de funcionar al momento.`);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(remove).toBeFocused();
  expect((await team.ownerPage.request.get(`/${team.codes[1]}`, { maxRedirects: 0 })).status()).toBe(302);

  await page.keyboard.press('Enter');
  await dialog.getByRole('button', { name: 'Eliminar espacio' }).focus();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: `Espacio «${team.name}» eliminado` })).toBeVisible();
  await expect(page.getByText('Ningún espacio de trabajo coincide con la búsqueda.')).toBeVisible();
  // The card went with its button: the keyboard carries on from the screen's heading.
  await expect(page.getByRole('heading', { level: 2, name: 'Espacios de trabajo' })).toBeFocused();

  // Its short links answer 404 at once, and a visitor sees the missing page.
  for (const code of team.codes) expect((await team.ownerPage.request.get(`/${code}`, { maxRedirects: 0 })).status()).toBe(404);
  consoleErrors.allow(failedRequest(404, `/${team.codes[0]}`));
  await team.ownerPage.goto(`/${team.codes[0]}`);
  await expect(team.ownerPage.getByRole('heading', { level: 1 })).toHaveText('Página no encontrada');
  // The owner no longer has it.
  expect((await team.ownerPage.request.get(`/api/workspaces/${team.slug}`)).status()).toBe(404);

  // The log says it in Spanish.
  await page.getByRole('navigation', { name: 'Administración' }).getByRole('link', { name: 'Registro' }).click();
  const entry = page.getByRole('list', { name: 'Registro de acciones' }).getByRole('listitem').filter({ hasText: team.slug }).first();
  await expect(entry).toContainText(`Eliminó el espacio de trabajo: ${team.slug}`);
  await expect(entry).toContainText(`${team.name} · 2 links`);

  // The owner's personal workspace is listed, with no delete button and the reason.
  await page.goto(`/admin/espacios?q=${encodeURIComponent(team.owner.name)}`);
  const personal = cards(page).filter({ hasText: team.owner.name });
  await expect(personal).toHaveCount(1);
  await expect(personal).toContainText('Tipo:Personal');
  await expect(personal).toContainText('se elimina con la cuenta de su dueño');
  await expect(personal.getByRole('button')).toHaveCount(0);
  await personal.getByRole('link', { name: 'Buscar la cuenta' }).click();
  await expect(page.getByRole('list', { name: 'Usuarios' }).getByRole('listitem').filter({ hasText: team.owner.email })).toBeVisible();
  await team.ownerPage.context().close();
});

test('at 375 px: the list fits, a refusal stays in the dialog, and a team is deleted from the phone', async ({ browser, page, consoleErrors }) => {
  test.setTimeout(90_000);
  const team = await seedTeam(browser, 'Teléfono con un nombre bastante largo');
  await signInAsAdmin(page);
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto(`/admin/espacios?q=${encodeURIComponent(team.slug)}`);
  const card = cards(page).filter({ hasText: team.name });
  await expect(card).toContainText('Links:2');
  const fits = async () => expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
  await fits();
  const remove = card.getByRole('button', { name: 'Eliminar' });
  const box = (await remove.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(375);

  // The owner deletes it first: the operator's refusal is told inside the dialog, which stays.
  await remove.click();
  const dialog = page.getByRole('dialog', { name: `¿Eliminar el espacio «${team.name}»?` });
  await fits();
  const gone = await team.ownerPage.request.delete(`/api/workspaces/${team.slug}`, { headers: sameOrigin, data: { password: team.owner.password } });
  expect(gone.status(), await gone.text()).toBe(204);
  consoleErrors.allow(/status of 404 \(Not Found\) \(http:\/\/[^/]+\/api\/admin\/workspaces\/\d+\)$/);
  await dialog.getByRole('button', { name: 'Eliminar espacio' }).click();
  const alert = dialog.getByRole('alert');
  await expect(alert).toHaveText('Espacio de trabajo no encontrado.');
  await expect(alert).toBeInViewport();
  await dialog.getByRole('button', { name: 'Cancelar' }).click();
  await expect(dialog).toBeHidden();

  // A second team, deleted from the phone.
  const other = await createTeamViaApi(team.ownerPage, `Otro equipo ${Date.now().toString(36)}`, uniqueSlug('admin-telefono'));
  await page.goto(`/admin/espacios?q=${encodeURIComponent(other.slug)}`);
  await cards(page).filter({ hasText: other.name }).getByRole('button', { name: 'Eliminar' }).click();
  await page.getByRole('dialog', { name: `¿Eliminar el espacio «${other.name}»?` }).getByRole('button', { name: 'Eliminar espacio' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Espacio «${other.name}» eliminado` })).toBeInViewport();
  await expect(page.getByText('Ningún espacio de trabajo coincide con la búsqueda.')).toBeVisible();

  // The personal workspace at this width: the reason, no button, nothing wider than the screen.
  await page.goto(`/admin/espacios?q=${encodeURIComponent(team.owner.name)}`);
  const personal = cards(page).filter({ hasText: team.owner.name });
  await expect(personal).toContainText('se elimina con la cuenta de su dueño');
  await expect(personal.getByRole('button')).toHaveCount(0);
  await fits();
  await team.ownerPage.context().close();
});
