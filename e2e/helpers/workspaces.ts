import { type Page, expect } from '@playwright/test';
import { sameOrigin } from './accounts';

let counter = 0;

/** A slug no other spec of this run takes. */
export function uniqueSlug(prefix = 'equipo'): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}`;
}

/** Makes a team workspace as the page's signed-in user (its owner), through the API. */
export async function createTeamViaApi(page: Page, name: string, slug = uniqueSlug()): Promise<{ slug: string; name: string }> {
  const response = await page.request.post('/api/workspaces', { headers: sameOrigin, data: { name, slug } });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()).workspace;
}

/** Invites an address into a workspace through the API; the invitation's address, to open elsewhere. */
export async function inviteViaApi(page: Page, slug: string, email: string, role: 'viewer' | 'editor' | 'admin' | 'owner'): Promise<string> {
  const response = await page.request.post(`/api/workspaces/${slug}/invites`, { headers: sameOrigin, data: { email, role } });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()).invite.url;
}

/** Accepts an invitation's address as the page's signed-in user, through the API. */
export async function acceptViaApi(page: Page, url: string): Promise<void> {
  const token = decodeURIComponent(new URL(url).pathname.split('/').at(-1)!);
  const response = await page.request.post(`/api/invites/${encodeURIComponent(token)}/accept`, { headers: sameOrigin });
  expect(response.status(), await response.text()).toBe(200);
}

/** The top bar's workspace switcher. */
export const switcher = (page: Page) => page.getByRole('navigation', { name: 'Principal' }).getByRole('button', { name: /^Espacio de trabajo:/ });
