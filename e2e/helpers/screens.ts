import { execFileSync } from 'node:child_process';
import { type Page, type Request, expect, request } from '@playwright/test';
import { failedRequest } from '../fixtures';
import { picturePng, sameOrigin, signUpViaApi, uniqueEmail } from './accounts';
import { openDetailWithStats, openRoutedDetail } from './stats-screen';
import { workspaceScreens } from './workspace-screens';

/** A screen the accessibility and screenshot specs visit: open() leaves it fully rendered. */
export type Screen = {
  name: string;
  open: (page: Page) => Promise<void>;
  /** Console errors this screen causes on purpose (a refused login, the 404 of an unknown address). */
  consoleErrors?: RegExp[];
};

async function openAt(page: Page, path: string) {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
}

/**
 * Shows the 'Redirecting...' screen: the app navigates to a short address, and the page load it
 * then starts towards the server is answered 204, which leaves the current document in place,
 * so the screen stays put while it is checked. Resolves with that page-load request.
 */
export async function openRedirectScreen(page: Page, code = 'e2ecode'): Promise<Request> {
  let sawRequest: (request: Request) => void = () => {};
  const requested = new Promise<Request>((resolve) => (sawRequest = resolve));
  await openAt(page, '/');
  await page.route(`**/${code}`, async (route) => {
    sawRequest(route.request());
    await route.fulfill({ status: 204 });
  });
  await navigateInApp(page, `/${code}`);
  await expect(page.getByText('Redirecting...')).toBeVisible();
  return requested;
}

/** Moves the single-page app to a path the way a router Link does: pushState plus popstate. */
export async function navigateInApp(page: Page, path: string) {
  // react-router's history reads its own key from the state; without one it treats it as a first load.
  // A string script: the e2e code is type-checked without the DOM library.
  await page.evaluate(`
    window.history.pushState({ usr: null, key: 'e2e-nav', idx: 1 }, '', ${JSON.stringify(path)});
    window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
  `);
}

async function signedIn(page: Page) {
  const account = await signUpViaApi(page, { name: 'Ana Gómez' });
  for (const [title, longUrl] of [
    ['Mi blog', 'https://ejemplo.com/blog/una-entrada-con-un-titulo-bastante-largo'],
    ['Documentación', 'https://docs.ejemplo.org/guia/empezar'],
  ]) {
    const response = await page.request.post('/api/links', { headers: sameOrigin, data: { title, longUrl } });
    expect(response.status(), await response.text()).toBe(201);
  }
  return account;
}

async function openDetail(page: Page) {
  await signedIn(page);
  const { links } = (await (await page.request.get('/api/links')).json()) as { links: { id: number }[] };
  await openAt(page, `/link/${links[0]?.id}`);
  // The statistics card has answered (these links have no clicks yet).
  await expect(page.getByText('No hay estadísticas disponibles para este link.')).toBeVisible();
}

/** A link of the signed-in user that an admin (made from the shell) has disabled with a reason. */
async function openDisabledDetail(page: Page) {
  await signedIn(page);
  await openAt(page, '/dashboard');
  const { links } = (await (await page.request.get('/api/links')).json()) as { links: { id: number }[] };
  const admin = await request.newContext({ baseURL: new URL(page.url()).origin });
  const email = uniqueEmail('jefa-pantallas');
  const registered = await admin.post('/api/auth/register', {
    headers: sameOrigin,
    multipart: { name: 'Jefa', email, password: 'secreto-e2e', profileImage: { name: 'a.png', mimeType: 'image/png', buffer: await picturePng() } },
  });
  expect(registered.status()).toBe(201);
  execFileSync(process.execPath, ['dist/server/corto.js', 'admin', email], {
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR ?? '', DATABASE_URL: '', LOG_LEVEL: 'silent' },
  });
  const off = await admin.patch(`/api/admin/links/${links[0]?.id}`, { headers: sameOrigin, data: { disabled: true, reason: 'Suplanta a un banco' } });
  expect(off.status()).toBe(200);
  await admin.dispose();
  await openAt(page, `/link/${links[0]?.id}`);
  await expect(page.getByText('Desactivado por quien administra el servidor. Motivo: Suplanta a un banco.')).toBeVisible();
}

// Every screen of the product; a new screen gets a line here, and with it an axe check and screenshots.
export const screens: Screen[] = [
  { name: 'landing', open: (page) => openAt(page, '/') },
  { name: 'auth', open: (page) => openAt(page, '/auth') },
  { name: 'auth-create-new', open: (page) => openAt(page, '/auth?createNew=https%3A%2F%2Fejemplo.com') },
  {
    // The register tab with every validation message showing (contrast of the error text, ARIA wiring).
    name: 'auth-register-errors',
    open: async (page) => {
      await openAt(page, '/auth');
      await page.getByRole('tab', { name: 'Registrarse' }).click();
      await page.getByRole('button', { name: 'Crear cuenta' }).click();
      await expect(page.getByText('La imagen de perfil es obligatoria')).toBeVisible();
    },
  },
  {
    name: 'auth-login-server-error',
    consoleErrors: [failedRequest(401, '/api/auth/login')],
    open: async (page) => {
      await openAt(page, '/auth');
      await page.getByLabel('Email').fill('nadie@corto.test');
      await page.getByLabel('Contraseña').fill('no-es-la-clave');
      await page.getByRole('button', { name: 'Iniciar sesión' }).click();
      await expect(page.getByRole('alert')).toHaveText('Email o contraseña incorrectos');
    },
  },
  { name: 'not-found-route', open: (page) => openAt(page, '/no/existe/esta/pagina') },
  { name: 'not-found-short-code', consoleErrors: [failedRequest(404, '/zz9zz9')], open: (page) => openAt(page, '/zz9zz9') },
  {
    name: 'redirect',
    open: async (page) => {
      await openRedirectScreen(page);
    },
  },
  {
    name: 'dashboard',
    open: async (page) => {
      await signedIn(page);
      await openAt(page, '/dashboard');
      await expect(page.getByRole('link', { name: /Mi blog/ })).toBeVisible();
    },
  },
  {
    name: 'dashboard-selection',
    open: async (page) => {
      await signedIn(page);
      await openAt(page, '/dashboard');
      await page.getByRole('checkbox', { name: 'Seleccionar «Mi blog»' }).check();
      await expect(page.getByRole('group', { name: 'Acciones sobre los seleccionados' })).toBeVisible();
    },
  },
  {
    name: 'bulk-delete-dialog',
    open: async (page) => {
      await signedIn(page);
      await openAt(page, '/dashboard');
      await page.getByRole('button', { name: 'Seleccionar todos los filtrados' }).click();
      await page.getByRole('group', { name: 'Acciones sobre los seleccionados' }).getByRole('button', { name: 'Eliminar' }).click();
      await expect(page.getByRole('dialog', { name: '¿Eliminar 2 links?' })).toBeVisible();
    },
  },
  {
    name: 'create-link-dialog',
    open: async (page) => {
      await signedIn(page);
      await page.goto('/dashboard?createNew=https%3A%2F%2Fejemplo.com%2Fnuevo');
      await expect(page.getByRole('dialog', { name: 'Crear link' })).toBeVisible();
    },
  },
  { name: 'link-detail', open: openDetail },
  { name: 'link-detail-disabled', open: openDisabledDetail },
  {
    // A link with every state shown (paused, expiry, limit, password, a former address) and its edit dialog.
    name: 'edit-link-dialog',
    open: async (page) => {
      await signUpViaApi(page);
      const stamp = Date.now().toString(36);
      const created = await page.request.post('/api/links', {
        headers: sameOrigin,
        data: { title: 'Campaña de otoño', longUrl: 'https://ejemplo.com/otono', customUrl: `folleto-${stamp}` },
      });
      const { link } = (await created.json()) as { link: { id: number } };
      const expiresAt = new Date(Date.now() + 7 * 86_400_000).toISOString();
      const edited = await page.request.patch(`/api/links/${link.id}`, {
        headers: sameOrigin,
        data: { customUrl: `cartel-${stamp}`, paused: true, expiresAt, maxClicks: 500, password: 'abre-sesamo' },
      });
      expect(edited.status(), await edited.text()).toBe(200);
      await openAt(page, `/link/${link.id}`);
      await expect(page.getByText('En pausa', { exact: true })).toBeVisible();
      await page.getByRole('button', { name: 'Editar link' }).click();
      await expect(page.getByRole('dialog', { name: 'Editar link' })).toBeVisible();
    },
  },
  {
    // The edit dialog's «Vista previa al compartir» with words and a picture, its card mock in view.
    name: 'edit-link-dialog-preview',
    open: async (page) => {
      await signUpViaApi(page);
      const created = await page.request.post('/api/links', {
        headers: sameOrigin,
        data: { title: 'Campaña de verano', longUrl: 'https://ejemplo.com/verano', preview: { title: 'Rebajas de verano', description: 'Todo al 50 % hasta el domingo' } },
      });
      const { link } = (await created.json()) as { link: { id: number } };
      const put = await page.request.put(`/api/links/${link.id}/preview-image`, {
        headers: sameOrigin,
        multipart: { image: { name: 'a.png', mimeType: 'image/png', buffer: await picturePng(300) } },
      });
      expect(put.status(), await put.text()).toBe(200);
      await openAt(page, `/link/${link.id}`);
      await page.getByRole('button', { name: 'Editar link' }).click();
      const card = page.getByRole('dialog', { name: 'Editar link' }).getByRole('figure', { name: 'Así se verá al compartirlo en un chat' });
      await expect(card.locator('img')).toBeVisible();
      await card.scrollIntoViewIfNeeded();
    },
  },
  {
    // What a visitor of a protected link sees: the server's own page, not the web app.
    name: 'visitor-password-page',
    open: async (page) => {
      await signUpViaApi(page);
      const alias = `clave-${Date.now().toString(36)}`;
      const created = await page.request.post('/api/links', { headers: sameOrigin, data: { title: 'Privado', longUrl: 'https://ejemplo.com/privado', customUrl: alias } });
      const { link } = (await created.json()) as { link: { id: number } };
      await page.request.patch(`/api/links/${link.id}`, { headers: sameOrigin, data: { password: 'abre-sesamo' } });
      await page.goto(`/${alias}`);
      await expect(page.getByRole('heading', { name: 'Este link está protegido' })).toBeVisible();
    },
  },
  { name: 'link-detail-stats', open: openDetailWithStats },
  { name: 'link-detail-routed', open: openRoutedDetail },
  {
    name: 'edit-link-dialog-rules',
    open: async (page) => {
      await openRoutedDetail(page);
      await page.getByRole('button', { name: 'Editar link' }).click();
      await expect(page.getByRole('dialog', { name: 'Editar link' }).getByRole('button', { name: 'Añadir regla' })).toBeVisible();
    },
  },
  {
    // An alias with 'ñ' and a destination with accents and an international domain, shown readable.
    name: 'link-detail-international',
    open: async (page) => {
      await signUpViaApi(page, { name: 'Ana Gómez' });
      const customUrl = `Ñoquis-${Date.now().toString(36)}`;
      const response = await page.request.post('/api/links', {
        data: { title: 'Receta de ñoquis', longUrl: 'https://españa.es/recetas/ñoquis_de_patata?fuente=abuela', customUrl },
        headers: sameOrigin,
      });
      expect(response.status(), await response.text()).toBe(201);
      const { link } = (await response.json()) as { link: { id: number } };
      await openAt(page, `/link/${link.id}`);
      await expect(page.getByRole('link', { name: 'https://españa.es/recetas/ñoquis_de_patata?fuente=abuela' })).toBeVisible();
      await expect(page.getByText('No hay estadísticas disponibles para este link.')).toBeVisible();
    },
  },
  {
    name: 'user-menu',
    open: async (page) => {
      await signedIn(page);
      await openAt(page, '/');
      await page.getByRole('button', { name: 'Menú de Ana Gómez' }).click();
      await expect(page.getByRole('menu')).toBeVisible();
    },
  },
  ...workspaceScreens,
];
