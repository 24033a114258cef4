import { type APIRequestContext, type Page, expect, request } from '@playwright/test';
import { picturePng, sameOrigin, signUpViaApi, uniqueEmail } from './accounts';
import type { Screen } from './screens';
import { acceptViaApi, createTeamViaApi, inviteViaApi, switcher } from './workspaces';

// The workspace screens for the accessibility, phone and screenshot specs: a team seen by its
// owner (members, with an invitation just made; activity), by a reader, and an invitation opened
// signed out.

async function openAt(page: Page, path: string) {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
}

/** Someone else, signed in through a request context of their own (the owner of a team the page joins). */
async function otherPerson(page: Page, name: string): Promise<{ api: APIRequestContext; email: string }> {
  if (page.url() === 'about:blank') await page.goto('/auth');
  const api = await request.newContext({ baseURL: new URL(page.url()).origin });
  const email = uniqueEmail('equipo');
  const registered = await api.post('/api/auth/register', {
    headers: sameOrigin,
    multipart: { name, email, password: 'secreto-e2e', profileImage: { name: 'p.png', mimeType: 'image/png', buffer: await picturePng() } },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  return { api, email };
}

/** A team owned by the page's user, with a second member, a link and an invitation pending. */
async function ownedTeam(page: Page): Promise<string> {
  await signUpViaApi(page, { name: 'Ana Gómez' });
  const team = await createTeamViaApi(page, 'Marketing y Comunicación Institucional');
  const member = await otherPerson(page, 'Bruno Díaz de la Fuente');
  const url = await inviteViaApi(page, team.slug, member.email, 'editor');
  const token = new URL(url).pathname.split('/').at(-1)!;
  expect((await member.api.post(`/api/invites/${token}/accept`, { headers: sameOrigin })).status()).toBe(200);
  const link = await member.api.post(`/api/links?workspace=${team.slug}`, { headers: sameOrigin, data: { title: 'Campaña de otoño', longUrl: 'https://ejemplo.com/otono' } });
  expect(link.status(), await link.text()).toBe(201);
  await member.api.dispose();
  await inviteViaApi(page, team.slug, uniqueEmail('pendiente'), 'viewer');
  return team.slug;
}

/** A team the page's user reads only, with a link in it. */
async function teamAsReader(page: Page): Promise<string> {
  const owner = await otherPerson(page, 'Olga Dueña');
  const made = await owner.api.post('/api/workspaces', { headers: sameOrigin, data: { name: 'Ventas' } });
  expect(made.status(), await made.text()).toBe(201);
  const { slug } = (await made.json()).workspace as { slug: string };
  const link = await owner.api.post(`/api/links?workspace=${slug}`, { headers: sameOrigin, data: { title: 'Catálogo', longUrl: 'https://ejemplo.com/catalogo' } });
  expect(link.status(), await link.text()).toBe(201);
  const account = await signUpViaApi(page, { name: 'Ana Gómez' });
  const invite = await owner.api.post(`/api/workspaces/${slug}/invites`, { headers: sameOrigin, data: { email: account.email, role: 'viewer' } });
  expect(invite.status(), await invite.text()).toBe(201);
  await acceptViaApi(page, (await invite.json()).invite.url);
  await owner.api.dispose();
  return slug;
}

// Domain names are the instance's to give once: each screen's are new.
let domainCounter = 0;

export const workspaceScreens: Screen[] = [
  {
    name: 'workspace-members',
    open: async (page) => {
      const slug = await ownedTeam(page);
      await openAt(page, `/w/${slug}/miembros`);
      const form = page.getByRole('form', { name: 'Invitar a una persona' });
      await form.getByLabel('Correo electrónico').fill(uniqueEmail('nueva'));
      await form.getByRole('button', { name: 'Invitar' }).click();
      await expect(page.getByRole('button', { name: /^Copiar el enlace de la invitación/ })).toBeVisible();
      await expect(page.getByRole('region', { name: 'Invitaciones pendientes' }).getByRole('listitem')).toHaveCount(2);
    },
  },
  {
    name: 'workspace-activity',
    open: async (page) => {
      const slug = await ownedTeam(page);
      await openAt(page, `/w/${slug}/actividad`);
      await expect(page.getByText('Bruno Díaz de la Fuente creó el enlace', { exact: false })).toBeVisible();
    },
  },
  {
    name: 'workspace-domains',
    open: async (page) => {
      const slug = await ownedTeam(page);
      for (const name of ['go', 'promociones-de-temporada']) {
        domainCounter += 1;
        const hostname = `${name}-${Date.now().toString(36)}${domainCounter}.empresa-e2e.example`;
        const added = await page.request.post(`/api/domains?workspace=${slug}`, { headers: sameOrigin, data: { hostname } });
        expect(added.status(), await added.text()).toBe(201);
      }
      await openAt(page, `/w/${slug}/dominios`);
      await expect(page.getByText('Pendiente de verificar')).toHaveCount(2);
    },
  },
  {
    name: 'workspace-dashboard-reader',
    open: async (page) => {
      const slug = await teamAsReader(page);
      await openAt(page, `/w/${slug}`);
      await expect(page.getByRole('link', { name: 'Catálogo' })).toBeVisible();
    },
  },
  {
    name: 'workspace-switcher',
    open: async (page) => {
      const slug = await ownedTeam(page);
      await openAt(page, `/w/${slug}`);
      await switcher(page).click();
      await expect(page.getByRole('menu')).toBeVisible();
    },
  },
  {
    name: 'invitation-signed-out',
    open: async (page) => {
      const owner = await otherPerson(page, 'Olga Dueña');
      const made = await owner.api.post('/api/workspaces', { headers: sameOrigin, data: { name: 'Diseño' } });
      const { slug } = (await made.json()).workspace as { slug: string };
      const invite = await owner.api.post(`/api/workspaces/${slug}/invites`, { headers: sameOrigin, data: { email: uniqueEmail('invitada'), role: 'editor' } });
      const url = (await invite.json()).invite.url as string;
      await owner.api.dispose();
      await openAt(page, new URL(url).pathname);
      await expect(page.getByRole('link', { name: 'Crea tu cuenta' })).toBeVisible();
    },
  },
];
