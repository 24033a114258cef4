import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTestProvider, type TestProvider } from '../server/test/oidc-provider';
import { expect, test } from './fixtures';
import { keepScreenshot } from './helpers/keep-screenshot';

// Sign-in with the company's provider in Chromium: this spec starts a real OpenID provider and a
// Corto of its own (the built server, its own data folder) pointed at it, beside the shared one.

const e2ePort = Number(process.env.E2E_PORT ?? 4173);
const cortoPort = e2ePort + 2;
const providerPort = e2ePort + 3;
const corto = `http://127.0.0.1:${cortoPort}`;

let provider: TestProvider;
let dataDir: string;
let server: ChildProcess | undefined;

async function startCorto(env: Record<string, string>): Promise<void> {
  server = spawn(process.execPath, ['dist/server/main.js'], {
    env: {
      ...process.env,
      PORT: String(cortoPort),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_BASE_URL: corto,
      DATABASE_URL: '',
      REDIS_URL: '',
      LOG_LEVEL: 'warn',
      ...provider.env(env),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const up = await fetch(`${corto}/api/health`).then((response) => response.ok, () => false);
    if (up) return;
    if (server.exitCode !== null) throw new Error(`Corto stopped at start (${server.exitCode})`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('Corto did not start');
}

async function stopCorto(): Promise<void> {
  const running = server;
  server = undefined;
  if (!running || running.exitCode !== null) return;
  const exited = new Promise((resolve) => running.once('exit', resolve));
  running.kill('SIGTERM');
  await exited;
}

test.beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'corto-e2e-oidc-'));
  provider = await startTestProvider({
    port: providerPort,
    redirectUris: [`${corto}/api/auth/oidc/callback`],
    postLogoutRedirectUris: [`${corto}/`],
  });
  provider.accounts.set('marta', { name: 'Marta Ruiz', email: 'marta@empresa.test', email_verified: true });
  provider.loginAs = 'marta';
  await startCorto({});
});

test.afterAll(async () => {
  await stopCorto();
  await provider?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

test('the first sign-in with the button makes the account and lands on the dashboard, createNew kept', async ({ page }) => {
  await page.goto(`${corto}/auth?createNew=${encodeURIComponent('https://ejemplo.com/una-pagina')}`);
  await expect(page.getByRole('link', { name: 'Entrar con Empresa' })).toBeVisible();
  for (const width of [1280, 375]) await keepScreenshot(page, 'auth-oidc', width);
  await page.getByRole('link', { name: 'Entrar con Empresa' }).click();
  await expect(page).toHaveURL(`${corto}/dashboard?createNew=${encodeURIComponent('https://ejemplo.com/una-pagina')}`);
  // The landing's long URL waits in the create dialog, as after a password sign-in.
  const dialog = page.getByRole('dialog', { name: 'Crear link' });
  await expect(dialog.getByRole('textbox', { name: 'URL original' })).toHaveValue('https://ejemplo.com/una-pagina');
  await dialog.getByRole('button', { name: 'Cerrar' }).click();
  // Signed in as the provider's user, the initials standing for the picture it never sent.
  const menu = page.getByRole('button', { name: 'Menú de Marta Ruiz' }).first();
  await expect(menu).toBeVisible();
  await expect(menu).toContainText('MR');

  // /cuenta names the provider; without a password there is nothing to change, and leaving asks the e-mail.
  await page.goto(`${corto}/cuenta`);
  const provider = page.getByRole('region', { name: 'Proveedor de la empresa' });
  await expect(provider).toContainText('Entras con Empresa');
  for (const width of [1280, 375]) await keepScreenshot(page, 'account-oidc', width);
  await expect(page.getByRole('region', { name: 'Contraseña' })).toContainText('Tu cuenta no tiene contraseña');
  await page.getByRole('button', { name: 'Eliminar mi cuenta' }).click();
  await expect(page.getByRole('dialog').getByLabel('Tu email')).toBeVisible();
});

test('with PASSWORD_LOGIN=false the /auth page offers only the provider', async ({ page }) => {
  await stopCorto();
  await startCorto({ PASSWORD_LOGIN: 'false' });
  await page.goto(`${corto}/auth`);
  await expect(page.getByRole('link', { name: 'Entrar con Empresa' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Iniciar sesión' })).toHaveCount(0);
  await expect(page.getByLabel('Contraseña')).toHaveCount(0);
  for (const width of [1280, 375]) await keepScreenshot(page, 'auth-provider-only', width);
});

test('a refusal at the provider comes back as a Spanish message on /auth', async ({ page }) => {
  await page.goto(`${corto}/auth?error=unverified`);
  await expect(page.getByRole('alert')).toContainText('el proveedor no lo da por verificado');
  for (const width of [1280, 375]) await keepScreenshot(page, 'auth-oidc-error', width);
});
