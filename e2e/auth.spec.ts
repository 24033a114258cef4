import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { picturePng, sameOrigin, signUpViaApi, uniqueEmail } from './helpers/accounts';
import { navigateInApp } from './helpers/screens';

const nav = (page: Page) => page.getByRole('navigation', { name: 'Principal' });

async function openRegisterTab(page: Page, path = '/auth') {
  await page.goto(path);
  await page.getByRole('tab', { name: 'Registrarse' }).click();
}

async function logIn(page: Page, email: string, password: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Contraseña').fill(password);
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
}

test('register with a picture, see the avatar menu, log out, and log in again', async ({ page }) => {
  const email = uniqueEmail('registro');
  await openRegisterTab(page);
  await page.getByLabel('Nombre').fill('Lucía Fernández');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Contraseña').fill('secreto-lucia');
  await expect(page.getByText('Sin imagen elegida')).toBeVisible();
  await page.getByLabel('Foto de perfil').setInputFiles({ name: 'lucia.png', mimeType: 'image/png', buffer: await picturePng() });
  // The chosen file's name, and a preview of it, before anything is sent.
  await expect(page.getByText('lucia.png')).toBeVisible();
  await expect(page.locator('main img[src^="data:image/png"]')).toBeVisible();
  await page.getByRole('button', { name: 'Crear cuenta' }).click();

  await expect(page).toHaveURL((url) => url.pathname === '/dashboard');
  const menuButton = nav(page).getByRole('button', { name: 'Menú de Lucía Fernández' });
  await expect(menuButton).toBeVisible();
  // The picture itself, stored under dp-{name}-{ms}-{random} and shown in the top bar.
  const avatar = menuButton.locator('img');
  await expect(avatar).toHaveAttribute('src', /^\/storage\/profile-pictures\/dp-Lucia-Fernandez-\d+-[\w-]{22}\.png$/);
  expect(await avatar.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(96);

  await menuButton.click();
  const menu = page.getByRole('menu');
  await expect(menu.getByText('Lucía Fernández')).toBeVisible();
  await expect(menu.getByRole('menuitem', { name: 'Mis links' })).toHaveAttribute('href', '/dashboard');

  // Hold the logout call so the top bar's loading bar can be seen while it runs.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/auth/logout', async (route) => {
    await held;
    await route.continue();
  });
  await menu.getByRole('menuitem', { name: 'Cerrar sesión' }).click();
  await expect(page.getByRole('progressbar', { name: 'Cerrando sesión' })).toBeVisible();
  release();
  await expect(page).toHaveURL((url) => url.pathname === '/auth');
  await expect(nav(page).getByRole('link', { name: 'Iniciar sesión' })).toHaveAttribute('href', '/auth');
  await expect(page.getByRole('progressbar', { name: 'Cerrando sesión' })).toHaveCount(0);

  // The session is over on the server too: the guard sends the visitor back.
  await page.goto('/dashboard');
  await expect(page).toHaveURL((url) => url.pathname === '/auth');

  await logIn(page, email.toUpperCase(), 'secreto-lucia');
  await expect(page).toHaveURL((url) => url.pathname === '/dashboard');
  await expect(nav(page).getByRole('button', { name: 'Menú de Lucía Fernández' })).toBeVisible();
});

test('while the session loads the guard shows the teal bar, then sends the visitor to /auth', async ({ page }) => {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/auth/session', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/dashboard');
  await expect(page.getByRole('progressbar', { name: 'Cargando sesión' })).toBeVisible();
  expect(new URL(page.url()).pathname).toBe('/dashboard');
  release();
  await expect(page).toHaveURL((url) => url.pathname === '/auth');
  await expect(page.getByRole('progressbar', { name: 'Cargando sesión' })).toHaveCount(0);
});

test('logout still signs out locally when the server answers 401, 403 or 404', async ({ page, consoleErrors }) => {
  consoleErrors.allow(/status of 40[134] .*\/api\/auth\/logout/);
  for (const status of [401, 403, 404]) {
    await signUpViaApi(page, { name: 'Sin Servidor' });
    await page.route('**/api/auth/logout', (route) =>
      route.fulfill({ status, contentType: 'application/json', body: '{"error":{"code":"not_found","message":"No encontrado."}}' }),
    );
    await page.goto('/dashboard');
    await nav(page).getByRole('button', { name: 'Menú de Sin Servidor' }).click();
    await page.getByRole('menuitem', { name: 'Cerrar sesión' }).click();
    await expect(page).toHaveURL((url) => url.pathname === '/auth');
    await expect(nav(page).getByRole('link', { name: 'Iniciar sesión' })).toBeVisible();
    await page.unroute('**/api/auth/logout');
    await page.context().clearCookies();
  }
});

test('a session ended on the server sends the user to /auth at the next call', async ({ page, consoleErrors }) => {
  consoleErrors.allow(/status of 401 .*\/api\/links\/999999/);
  await signUpViaApi(page, { name: 'Caducada' });
  // The dashboard's own requests (links, tags, domains) answered first: else they answer 401 too.
  // Waited for by name: on a busy machine the network can sit idle before the app has sent them.
  const dashboardRead = Promise.all(
    ['/api/links', '/api/tags', '/api/domains'].map((pathname) => page.waitForResponse((response) => new URL(response.url()).pathname === pathname)),
  );
  await page.goto('/dashboard');
  await expect(nav(page).getByRole('button', { name: 'Menú de Caducada' })).toBeVisible();
  await dashboardRead;
  // Ended behind the app's back (as an expiry or a logout in another tab would).
  expect((await page.request.post('/api/auth/logout', { headers: sameOrigin })).status()).toBe(204);
  await navigateInApp(page, '/link/999999');
  await expect(page).toHaveURL((url) => url.pathname === '/auth');
  await expect(nav(page).getByRole('link', { name: 'Iniciar sesión' })).toBeVisible();
});

test('the guard sends an anonymous visitor from the signed-in screens to /auth', async ({ page }) => {
  for (const path of ['/dashboard', '/link/1']) {
    await page.goto(path);
    await expect(page).toHaveURL((url) => url.pathname === '/auth');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Iniciar sesión / Registrarse');
  }
  await expect(nav(page).getByRole('link', { name: 'Corto' })).toHaveAttribute('href', '/');
});

test('createNew is kept from the landing page, through /auth, to the dashboard', async ({ page }) => {
  const longUrl = 'https://ejemplo.com/una/ruta/larga?x=1';
  const account = await signUpViaApi(page, { name: 'Tomás' });
  await page.context().clearCookies();

  await page.goto('/');
  await page.getByRole('textbox', { name: 'URL que quieres acortar' }).fill(longUrl);
  await page.getByRole('button', { name: 'Acortar!' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('¡Espera! Primero inicia sesión...');
  await logIn(page, account.email, account.password);
  await expect(page).toHaveURL((url) => url.pathname === '/dashboard' && url.searchParams.get('createNew') === longUrl);

  // Already signed in: /auth passes straight on, createNew kept.
  await page.goto(`/auth?createNew=${encodeURIComponent(longUrl)}`);
  await expect(page).toHaveURL((url) => url.pathname === '/dashboard' && url.searchParams.get('createNew') === longUrl);

  // Signed out, a /dashboard address with createNew goes through /auth and back with it. The open
  // dashboard is left first: a request of its own sent once the cookies are gone would meet a 401.
  await page.goto('about:blank');
  await page.context().clearCookies();
  await page.goto(`/dashboard?createNew=${encodeURIComponent(longUrl)}`);
  await expect(page).toHaveURL((url) => url.pathname === '/auth' && url.searchParams.get('createNew') === longUrl);
  await openRegisterTab(page, page.url());
  await page.getByLabel('Nombre').fill('Nueva');
  await page.getByLabel('Email').fill(uniqueEmail('nueva'));
  await page.getByLabel('Contraseña').fill('secreto-nueva');
  await page.getByLabel('Foto de perfil').setInputFiles({ name: 'n.png', mimeType: 'image/png', buffer: await picturePng() });
  await page.getByRole('button', { name: 'Crear cuenta' }).click();
  await expect(page).toHaveURL((url) => url.pathname === '/dashboard' && url.searchParams.get('createNew') === longUrl);
});

test('login shows every validation message under its field, all at once', async ({ page }) => {
  await page.goto('/auth');
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
  const email = page.locator('#login-email-error');
  const password = page.locator('#login-password-error');
  await expect(email.getByRole('listitem')).toHaveText(['El Email es obligatorio']);
  await expect(password.getByRole('listitem')).toHaveText([
    'La contraseña es obligatoria',
    'La contraseña debe tener al menos 6 caracteres',
  ]);
  await expect(page.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');

  await logIn(page, 'no-es-email', '123');
  await expect(email.getByRole('listitem')).toHaveText(['Email incorrecto']);
  await expect(password.getByRole('listitem')).toHaveText(['La contraseña debe tener al menos 6 caracteres']);
});

test('registration shows every validation message under its field, all at once', async ({ page }) => {
  await openRegisterTab(page);
  await page.getByRole('button', { name: 'Crear cuenta' }).click();
  await expect(page.locator('#register-name-error li')).toHaveText(['El nombre es obligatorio']);
  await expect(page.locator('#register-email-error li')).toHaveText(['El email es obligatorio']);
  await expect(page.locator('#register-password-error li')).toHaveText([
    'La contraseña es obligatoria',
    'La contraseña debe tener al menos 6 caracteres',
  ]);
  await expect(page.locator('#register-picture-error li')).toHaveText(['La imagen de perfil es obligatoria']);

  await page.getByLabel('Email').fill('no-es-email');
  await page.getByLabel('Foto de perfil').setInputFiles({ name: 'notas.txt', mimeType: 'text/plain', buffer: Buffer.from('hola') });
  await page.getByRole('button', { name: 'Crear cuenta' }).click();
  await expect(page.locator('#register-email-error li')).toHaveText(['El email no es válido']);
  await expect(page.locator('#register-picture-error li')).toHaveText(['La imagen de perfil debe ser PNG, JPEG, WebP o GIF']);
});

test('server errors show beside the form\'s button, in view: wrong password, taken e-mail, a disguised text file', async ({ page, consoleErrors }) => {
  consoleErrors.allow(/status of (401 .*\/api\/auth\/login|409 .*\/api\/auth\/register|400 .*\/api\/auth\/register)/);
  const account = await signUpViaApi(page);
  await page.context().clearCookies();
  await page.goto('/auth');
  await logIn(page, account.email, 'no-es-la-clave');
  await expect(page.getByRole('alert')).toHaveText('Email o contraseña incorrectos');
  await expect(page.getByRole('alert')).toBeInViewport();
  await expect(page).toHaveURL((url) => url.pathname === '/auth');

  await page.getByRole('tab', { name: 'Registrarse' }).click();
  await page.getByLabel('Nombre').fill('Repetida');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Contraseña').fill('secreto-otra');
  // Named and declared as a PNG, but text inside: the server reads the bytes.
  await page.getByLabel('Foto de perfil').setInputFiles({ name: 'foto.png', mimeType: 'image/png', buffer: Buffer.from('texto, no imagen') });
  await page.getByRole('button', { name: 'Crear cuenta' }).click();
  await expect(page.getByRole('alert')).toHaveText('Ya existe una cuenta con este email');
  await expect(page.getByRole('alert')).toBeInViewport();
  await expect(page.locator('#register-email-error li')).toHaveText(['Ya existe una cuenta con este email']);

  await page.getByLabel('Email').fill(uniqueEmail('disfrazada'));
  await page.getByRole('button', { name: 'Crear cuenta' }).click();
  await expect(page.getByRole('alert')).toHaveText('La imagen de perfil debe ser PNG, JPEG, WebP o GIF');
  await expect(page.locator('#register-picture-error li')).toHaveText(['La imagen de perfil debe ser PNG, JPEG, WebP o GIF']);
});
