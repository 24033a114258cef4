import { type Page, expect } from '@playwright/test';
import { sameOrigin, uniqueEmail } from './accounts';
import type { MailServer } from './mail-server';
import { uniqueSlug } from './workspaces';

// The screens only a server that sends mail shows (helpers/mail-server.ts), for screenshots.spec.

export interface MailScreen {
  name: string;
  /** Console errors the screen causes on purpose (as in helpers/screens.ts). */
  consoleErrors?: RegExp[];
  open(page: Page, mail: MailServer): Promise<void>;
}

export const mailScreens: MailScreen[] = [
  {
    // The e-mail card: the address not yet confirmed ('Reenviar') and a change waiting for its link.
    name: 'account-email-pending',
    async open(page, mail) {
      const account = await mail.signUp(page, { name: 'Nora Correo' });
      const next = uniqueEmail('nueva-direccion');
      const asked = await page.request.post(`${mail.baseURL}/api/account/email`, { headers: sameOrigin, data: { email: next, password: account.password } });
      expect(asked.status()).toBe(202);
      await page.goto(`${mail.baseURL}/cuenta`);
      await expect(page.getByTestId('pending-email-change')).toContainText(next);
    },
  },
  {
    // An invitation accepted before the address is confirmed: what to do, and the way to /cuenta.
    name: 'invitation-confirm-email',
    consoleErrors: [/status of 403 \(.*\) \(http:\/\/[^/]+\/api\/invites\/[\w-]+\/accept\)$/],
    async open(page, mail) {
      const owner = await page.context().browser()!.newContext({ baseURL: mail.baseURL });
      const ownerPage = await owner.newPage();
      await mail.signUp(ownerPage, { name: 'Olga Dueña' });
      const slug = uniqueSlug('correo');
      expect((await ownerPage.request.post('/api/workspaces', { headers: sameOrigin, data: { name: 'Equipo Correo', slug } })).status()).toBe(201);
      const email = uniqueEmail('invitada');
      const made = await ownerPage.request.post(`/api/workspaces/${slug}/invites`, { headers: sameOrigin, data: { email, role: 'editor' } });
      expect(made.status()).toBe(201);
      const invitation = (await made.json()).invite.url as string;
      await owner.close();
      await mail.signUp(page, { name: 'Inés Invitada', email });
      await page.goto(invitation);
      await page.getByRole('button', { name: 'Aceptar invitación' }).click();
      await expect(page.getByRole('link', { name: 'Confirmar mi email en Mi cuenta' })).toBeVisible();
    },
  },
];
