import { type Page, expect } from '@playwright/test';
import sharp from 'sharp';

let counter = 0;

/** A unique e-mail for this run, so specs never collide on the shared server. */
export function uniqueEmail(prefix = 'e2e'): string {
  counter += 1;
  return `${prefix}-${Date.now()}-${counter}@corto.test`;
}

/** A real PNG, made now (nothing generated is kept in the repository). */
export async function picturePng(size = 96): Promise<Buffer> {
  return sharp({ create: { width: size, height: size, channels: 3, background: { r: 45, g: 212, b: 191 } } })
    .png()
    .toBuffer();
}

/**
 * What the browser adds to the app's own fetches; the API refuses a write that carries the session
 * cookie without it (or a matching Origin), and Playwright's request API sends neither by itself.
 */
export const sameOrigin = { 'sec-fetch-site': 'same-origin' };

export interface Account {
  name: string;
  email: string;
  password: string;
}

/**
 * Signs a new user up through the API from the page's own browser context, so the page is signed
 * in (the session cookie lands in its cookie jar). For specs that need a signed-in user fast.
 */
export async function signUpViaApi(page: Page, overrides: Partial<Account> = {}): Promise<Account> {
  const account: Account = {
    name: overrides.name ?? 'Persona de Prueba',
    email: overrides.email ?? uniqueEmail(),
    password: overrides.password ?? 'secreto-e2e',
  };
  const response = await page.request.post('/api/auth/register', {
    headers: sameOrigin,
    multipart: {
      ...account,
      profileImage: { name: 'avatar.png', mimeType: 'image/png', buffer: await picturePng() },
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return account;
}
