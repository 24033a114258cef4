import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { failedRequest, expect, test } from './fixtures';
import { sameOrigin, uniqueEmail } from './helpers/accounts';
import { type MailServer, startMailServer } from './helpers/mail-server';
import { uniqueSlug } from './helpers/workspaces';

// Proved addresses in the browser, against a Corto that sends real mail (to a capture read here):
// the sign-up's link, the account page's states, a change of address waiting for its link, and an
// invitation that waits for a confirmed address. At 375 px, by keyboard.

let mail: MailServer;
test.beforeAll(async () => (mail = await startMailServer(2)));
test.afterAll(async () => mail?.stop());
test.beforeEach(async ({ page }) => page.setViewportSize({ width: 375, height: 800 }));

const blocking = new Set(['moderate', 'serious', 'critical']);
async function expectNoAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  expect(results.violations.filter((v) => blocking.has(v.impact ?? '')).map((v) => v.id)).toEqual([]);
}

/** Opens a mailed confirmation link and uses it with the keyboard (the page asks for a press, not a load). */
async function useLink(page: Page, link: string, says: string) {
  await page.goto(link);
  await page.getByRole('button', { name: 'Verificar mi email' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status')).toHaveText(says);
}

test('the sign-up link confirms the address; a new address waits for its own link, then replaces the old', async ({ page, consoleErrors }) => {
  consoleErrors.allow(failedRequest(429, '/api/account/email/pending/resend'));
  const account = await mail.signUp(page, { name: 'Nora Correo' });
  await page.goto(`${mail.baseURL}/cuenta`);
  const section = page.getByRole('region', { name: 'Email' });
  await expect(section.getByText('Tu email no está verificado: te enviamos un enlace')).toBeVisible();
  await expect(section.getByRole('button', { name: 'Reenviar' })).toBeVisible();

  await useLink(page, await mail.linkTo(account.email), `Email verificado: ${account.email}.`);
  await page.goto(`${mail.baseURL}/cuenta`);
  await expect(section.getByText('Email verificado')).toBeVisible();

  const next = uniqueEmail('nueva');
  await section.getByLabel('Email').fill(next);
  await section.getByLabel('Contraseña').fill(account.password);
  await page.keyboard.press('Enter');
  await expect(section.getByRole('status').first()).toContainText(`Te hemos enviado un enlace a ${next}`);
  const pending = section.getByTestId('pending-email-change');
  await expect(pending).toContainText(`Pendiente de confirmar: ${next}`);
  // Nothing changed yet: the form and the session keep the old address.
  await expect(section.getByLabel('Email')).toHaveValue(account.email);
  await pending.getByRole('button', { name: 'Reenviar' }).click();
  await expect(pending.getByRole('alert')).toContainText('hace menos de un minuto');
  await expectNoAxeViolations(page);
  expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);

  await useLink(page, await mail.linkTo(next), `Email cambiado: tu cuenta ahora usa ${next}, ya verificado.`);
  await page.goto(`${mail.baseURL}/cuenta`);
  await expect(section.getByLabel('Email')).toHaveValue(next);
  await expect(section.getByText('Email verificado')).toBeVisible();
  await expect(section.getByTestId('pending-email-change')).toHaveCount(0);
});

test('a change of address waiting can be cancelled', async ({ page }) => {
  const account = await mail.signUp(page, { name: 'Cata Cancela' });
  const next = uniqueEmail('arrepentida');
  const asked = await page.request.post(`${mail.baseURL}/api/account/email`, { headers: sameOrigin, data: { email: next, password: account.password } });
  expect(asked.status()).toBe(202);
  await page.goto(`${mail.baseURL}/cuenta`);
  const pending = page.getByTestId('pending-email-change');
  await expect(pending).toContainText(next);
  await pending.getByRole('button', { name: 'Cancelar el cambio' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText(`Cambio a ${next} cancelado: tu email sigue igual.`)).toBeVisible();
  await expect(pending).toHaveCount(0);
});

test('an invitation waits until its addressee has confirmed the address', async ({ page, browser, consoleErrors }) => {
  consoleErrors.allow(/status of 403 \(.*\) \(http:\/\/[^/]+\/api\/invites\/[\w-]+\/accept\)$/);
  // The team's owner, in a browser of their own.
  const ownerContext = await browser.newContext({ baseURL: mail.baseURL });
  const owner = await ownerContext.newPage();
  await mail.signUp(owner, { name: 'Olga Dueña' });
  const slug = uniqueSlug('correo');
  expect((await owner.request.post('/api/workspaces', { headers: sameOrigin, data: { name: 'Equipo Correo', slug } })).status()).toBe(201);
  const guestEmail = uniqueEmail('invitada');
  const made = await owner.request.post(`/api/workspaces/${slug}/invites`, { headers: sameOrigin, data: { email: guestEmail, role: 'editor' } });
  expect(made.status()).toBe(201);
  const invitation = (await made.json()).invite.url as string;
  await ownerContext.close();

  await mail.signUp(page, { name: 'Inés Invitada', email: guestEmail });
  await page.goto(invitation);
  await page.getByRole('button', { name: 'Aceptar invitación' }).click();
  await expect(page.getByRole('alert')).toContainText('Confirma tu email antes de aceptar la invitación');
  await expect(page.getByRole('link', { name: 'Confirmar mi email en Mi cuenta' })).toBeVisible();
  await expectNoAxeViolations(page);

  await useLink(page, await mail.linkTo(guestEmail), `Email verificado: ${guestEmail}.`);
  await page.goto(invitation);
  await page.getByRole('button', { name: 'Aceptar invitación' }).click();
  await expect(page).toHaveURL(new RegExp(`/w/${slug}`));
});
