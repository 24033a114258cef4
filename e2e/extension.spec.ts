import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { type BrowserContext, chromium, type Page, type Worker, request as playwrightRequest } from '@playwright/test';
import { chromiumArgs, chromiumPath } from './chromium';
import { expect, test } from './fixtures';
import { sameOrigin, signUpViaApi } from './helpers/accounts';
import { keepScreenshot } from './helpers/keep-screenshot';

// The browser extension, built by `npm run build` (build:extension) into dist/extension/, loaded
// unpacked in Debian's Chromium as a person would load it. Its toolbar button is pressed through
// the DevTools protocol (Extensions.triggerAction), which grants the extension the tab as a click
// does (activeTab); the popup is then opened in a tab of its own, naming that tab
// (popup.html?tab=<id>), since a test cannot reach the popup's own window.

const extensionDir = path.resolve('dist/extension');
const port = Number(process.env.E2E_PORT ?? 4173);
// A web page to shorten, on another host than the instance's (which refuses links to itself).
const pagePort = port + 2;
const pageUrl = `http://localhost:${pagePort}/receta`;
// Nothing listens here: the instance that cannot be reached.
const nowhere = `http://127.0.0.1:${port + 3}`;

let context: BrowserContext;
let worker: Worker;
let extensionId: string;
let pageServer: Server;
const consoleLines: string[] = [];

test.beforeAll(async () => {
  if (!existsSync(path.join(extensionDir, 'manifest.json'))) throw new Error('Falta dist/extension: ejecuta npm run build:extension');
  pageServer = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><html lang="es"><title>Receta de croquetas</title><h1>Croquetas</h1></html>');
  });
  await new Promise<void>((resolve) => pageServer.listen(pagePort, '127.0.0.1', resolve));
  context = await chromium.launchPersistentContext('', {
    executablePath: chromiumPath,
    headless: true,
    args: [...chromiumArgs, '--enable-unsafe-extension-debugging', `--disable-extensions-except=${extensionDir}`, `--load-extension=${extensionDir}`],
  });
  const watch = (page: Page) => {
    page.on('console', (message) => void (message.type() === 'error' && consoleLines.push(message.text())));
    page.on('pageerror', (error) => consoleLines.push(`uncaught: ${error.message}`));
  };
  context.on('page', watch);
  worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  extensionId = new URL(worker.url()).host;
  // Chromium grants nothing to an extension's origin from here: the clipboard is read from the instance's page.
  await context.grantPermissions(['clipboard-read'], { origin: `http://127.0.0.1:${port}` });
});

test.afterAll(async () => {
  await context?.close();
  await new Promise((resolve) => pageServer?.close(resolve));
});

// Every test starts from a fresh install's state: nothing saved.
test.beforeEach(async () => {
  consoleLines.length = 0;
  await worker.evaluate(() => chrome.storage.local.clear());
});

/**
 * Only the failed requests a test causes on purpose may reach the console, and the token check's
 * 400 on saving (it sends an empty link so as to create nothing: corto-api.ts).
 */
function expectConsoleClean(allowed: RegExp[] = []) {
  const expected = [...allowed, /status of 400 \(Bad Request\)$/];
  expect(consoleLines.filter((line) => !expected.some((pattern) => pattern.test(line)))).toEqual([]);
}

/** A new account's token, made through the API as the 'Tokens de API' screen makes it. */
async function tokenFor(page: Page, scope: 'read' | 'write'): Promise<string> {
  await signUpViaApi(page);
  const response = await page.request.post('/api/tokens', { headers: sameOrigin, data: { name: 'Extensión', scope } });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { secret: string }).secret;
}

async function openOptions(): Promise<Page> {
  const options = await context.newPage();
  await options.goto(`chrome-extension://${extensionId}/options.html`);
  return options;
}

async function saveOptions(address: string, token: string): Promise<Page> {
  const options = await openOptions();
  await options.getByLabel('Dirección de tu Corto').fill(address);
  await options.getByLabel('Token de API').fill(token);
  await options.getByRole('button', { name: 'Guardar' }).click();
  return options;
}

/** Presses the extension's toolbar button on the tab showing `page`, then opens its popup for that tab. */
async function pressToolbarButton(page: Page): Promise<Page> {
  const session = await context.browser()!.newBrowserCDPSession();
  // The protocol's Extensions domain is newer than Playwright's typings of it.
  const send = session.send.bind(session) as (method: string, params?: object) => Promise<unknown>;
  const { targetInfos } = (await send('Target.getTargets', { filter: [{ type: 'tab' }] })) as { targetInfos: { targetId: string; url: string }[] };
  const tab = targetInfos.find((target) => target.url === page.url());
  expect(tab, `a tab shows ${page.url()}`).toBeDefined();
  await send('Extensions.triggerAction', { id: extensionId, targetId: tab!.targetId });
  await session.detach();
  // The press granted the extension this tab: its address is now readable to it.
  const tabId = await worker.evaluate(async (url) => (await chrome.tabs.query({})).find((candidate) => candidate.url === url)?.id, page.url());
  const popup = await context.newPage();
  await popup.setViewportSize({ width: 375, height: 640 });
  await popup.goto(`chrome-extension://${extensionId}/popup.html?tab=${tabId ?? 0}`);
  return popup;
}

test('shortens the current page with an alias, copies the short address and shows its QR', async ({ page, baseURL }) => {
  const token = await tokenFor(page, 'write');
  const options = await saveOptions(`${baseURL}/`, token);
  await expect(options.getByRole('status')).toHaveText('Guardado. Ya puedes acortar páginas con el botón de Corto de la barra.');
  // Saved as the instance's address, without the slash.
  await expect(options.getByLabel('Dirección de tu Corto')).toHaveValue(baseURL!);
  for (const width of [1280, 375]) await keepScreenshot(options, 'extension-options', width);

  const recipe = await context.newPage();
  await recipe.goto(pageUrl);
  const popup = await pressToolbarButton(recipe);
  await expect(popup.getByText('Receta de croquetas')).toBeVisible();
  await expect(popup.getByText(pageUrl)).toBeVisible();
  await keepScreenshot(popup, 'extension-popup-form', 375);

  // The alias is checked by common/'s schema before any request, in the web app's words.
  const alias = popup.getByLabel('URL personalizada (opcional)');
  await expect(alias).toBeFocused();
  await alias.fill('no vale');
  await popup.getByRole('button', { name: 'Acortar' }).click();
  await expect(popup.getByText('La URL personalizada solo puede tener letras, números, guiones (-) y guiones bajos (_)')).toBeVisible();
  await expect(alias).toHaveAttribute('aria-invalid', 'true');

  const chosen = `croquetas-${Date.now()}`;
  await alias.fill(chosen);
  await alias.press('Enter');
  const shortLink = `${baseURL}/${chosen}`;
  await expect(popup.getByRole('textbox', { name: 'Enlace corto' })).toHaveValue(shortLink);
  await expect(popup.getByRole('status')).toHaveText('Enlace corto copiado al portapapeles');
  await expect(popup.getByRole('button', { name: 'Copiado' })).toBeFocused();
  const reader = await context.newPage();
  await reader.goto(baseURL!);
  expect(await reader.evaluate('navigator.clipboard.readText()')).toBe(shortLink);
  await reader.close();
  const qr = popup.getByRole('img', { name: `Código QR de ${shortLink}` });
  await expect(qr).toBeVisible();
  await keepScreenshot(popup, 'extension-popup', 375);
  expect(await qr.evaluate((image: { src: string; naturalWidth: number }) => image.src.startsWith('blob:') && image.naturalWidth >= 128)).toBe(true);

  // The link exists, with the page's title and address.
  const api = await playwrightRequest.newContext({ baseURL });
  const links = (await (await api.get('/api/links', { headers: { authorization: `Bearer ${token}` } })).json()) as {
    links: { title: string; originalUrl: string; shortLink: string }[];
  };
  expect(links.links).toContainEqual(expect.objectContaining({ title: 'Receta de croquetas', originalUrl: pageUrl, shortLink }));
  await api.dispose();

  // The alias is taken now: the server's own message, under the field.
  const again = await pressToolbarButton(recipe);
  await again.getByLabel('URL personalizada (opcional)').fill(chosen);
  await again.getByRole('button', { name: 'Acortar' }).click();
  await expect(again.getByText('Esa URL personalizada ya está en uso')).toBeVisible();
  expectConsoleClean([/status of 409/]);
});

test('refuses to save a wrong token, a read-only one and an instance it cannot reach', async ({ page, baseURL }) => {
  // Before any option is saved, the button sends people to the options.
  const recipe = await context.newPage();
  await recipe.goto(pageUrl);
  const popup = await pressToolbarButton(recipe);
  await expect(popup.getByText('Antes de acortar, indica la dirección de tu Corto y un token en las opciones.')).toBeVisible();
  await popup.getByRole('button', { name: 'Abrir opciones' }).press('Enter');
  // A new tab, or the options tab already open brought to the front: either way, the active one.
  const activeTab = () => worker.evaluate(async () => (await chrome.tabs.query({ active: true, lastFocusedWindow: true }))[0]?.url);
  await expect.poll(activeTab).toBe(`chrome-extension://${extensionId}/options.html`);

  const options = await saveOptions(baseURL!, 'corto_esto-no-es-un-token-de-verdad-0000000000');
  await expect(options.getByRole('alert')).toHaveText('El token no es válido o se ha revocado');

  const readOnly = await tokenFor(page, 'read');
  await options.getByLabel('Token de API').fill(readOnly);
  await options.getByRole('button', { name: 'Guardar' }).click();
  await expect(options.getByRole('alert')).toHaveText('Ese token solo puede leer: crea uno de escritura');

  const write = await tokenFor(page, 'write');
  await options.getByLabel('Dirección de tu Corto').fill(nowhere);
  await options.getByLabel('Token de API').fill(write);
  await options.getByRole('button', { name: 'Guardar' }).click();
  await expect(options.getByRole('alert')).toHaveText(`No se puede conectar con ${nowhere}`);
  // 'Comprobando…' is gone: one message at a time.
  await expect(options.getByRole('status')).toBeHidden();
  // Nothing was saved: a fresh options page is still empty.
  const fresh = await openOptions();
  await expect(fresh.getByLabel('Dirección de tu Corto')).toHaveValue('');
  expectConsoleClean([/status of 401/, /status of 403/, /ERR_CONNECTION_REFUSED/]);
});

test("says a browser page cannot be shortened, and that an instance gone away can't be reached", async ({ page, baseURL }) => {
  const token = await tokenFor(page, 'write');
  const options = await saveOptions(baseURL!, token);
  await expect(options.getByRole('status')).toContainText('Guardado');

  const settingsPage = await context.newPage();
  await settingsPage.goto('chrome://version/');
  const popup = await pressToolbarButton(settingsPage);
  await expect(popup.getByText('Esta página no se puede acortar')).toBeVisible();
  await expect(popup.getByText('Solo se pueden acortar páginas web (direcciones http o https).')).toBeVisible();
  await expect(popup.getByRole('button', { name: 'Acortar' })).toBeHidden();

  // The instance moves away after the options were saved.
  await worker.evaluate(
    async ([address, secret]) => chrome.storage.local.set({ settings: { address, token: secret } }),
    [nowhere, token] as const,
  );
  const recipe = await context.newPage();
  await recipe.goto(pageUrl);
  const offline = await pressToolbarButton(recipe);
  await offline.getByRole('button', { name: 'Acortar' }).click();
  await expect(offline.getByRole('alert')).toHaveText(`No se puede conectar con ${nowhere}`);
  expectConsoleClean([/ERR_CONNECTION_REFUSED/]);
});
