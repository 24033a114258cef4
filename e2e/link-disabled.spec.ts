import { execFileSync } from 'node:child_process';
import { sameOrigin, signUpViaApi, uniqueEmail } from './helpers/accounts';
import { expect, test } from './fixtures';

// A disabled link as its owner sees it: the true state, why, and what they can do. The admin is
// made from the shell, as operator.spec does.

test('the owner sees a link on a blocked domain, or disabled by the operator, as disabled, with why and what to do', async ({ page, browser, baseURL }) => {
  test.slow();
  const adminContext = await browser.newContext({ baseURL });
  const admin = await adminContext.newPage();
  const adminEmail = uniqueEmail('jefa-bloqueos');
  await signUpViaApi(admin, { name: 'Jefa', email: adminEmail });
  execFileSync(process.execPath, ['dist/server/corto.js', 'admin', adminEmail], {
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR ?? '', DATABASE_URL: '', LOG_LEVEL: 'silent' },
  });

  await signUpViaApi(page);
  const make = async (title: string, longUrl: string) => {
    const response = await page.request.post('/api/links', { headers: sameOrigin, data: { title, longUrl } });
    expect(response.status()).toBe(201);
    return (await response.json()).link.id as number;
  };
  const blocked = await make('Tienda', 'https://tienda.bloqueado-e2e.example/oferta');
  const judged = await make('Banco', 'https://banco-falso-e2e.example/');
  const settings = await (await admin.request.get('/api/admin/settings')).json();
  const put = await admin.request.put('/api/admin/settings', {
    headers: sameOrigin,
    data: { signup: settings.signup, blockedDomains: [...settings.blockedDomains, 'bloqueado-e2e.example'] },
  });
  expect(put.status()).toBe(200);
  try {
    const off = await admin.request.patch(`/api/admin/links/${judged}`, { headers: sameOrigin, data: { disabled: true, reason: 'Suplanta a un banco' } });
    expect(off.status()).toBe(200);

    await page.goto('/dashboard');
    const card = (title: string) => page.getByRole('list', { name: 'Links' }).getByRole('listitem').filter({ hasText: title });
    await expect(card('Tienda').getByText('Desactivado', { exact: true })).toBeVisible();
    await expect(card('Tienda')).toContainText('Desactivado: su destino está en un dominio bloqueado en este servidor');
    await expect(card('Banco')).toContainText('Desactivado por quien administra el servidor. Motivo: Suplanta a un banco');

    // The operator's decision: explained, not editable.
    await card('Banco').getByRole('button', { name: 'Editar link' }).click();
    const refused = page.getByRole('dialog', { name: 'Editar link' });
    await expect(refused).toContainText('No se puede editar; puedes eliminarlo');
    await expect(refused.getByRole('button', { name: 'Guardar' })).toHaveCount(0);
    await refused.getByRole('button', { name: 'Cerrar' }).first().click();
    await expect(refused).toBeHidden();

    // The blocked domain: the detail says why and what to do; moving the destination brings it back.
    await page.goto(`/link/${blocked}`);
    await expect(page.getByRole('main')).toContainText('cambia la URL original por una de otro dominio');
    await page.getByRole('button', { name: 'Editar link' }).click();
    const dialog = page.getByRole('dialog', { name: 'Editar link' });
    await expect(dialog).toContainText('dominio bloqueado');
    await dialog.getByLabel('URL original').fill('https://tienda-permitida-e2e.example/oferta');
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText('Activo', { exact: true })).toBeVisible();
    await expect(page.getByRole('main')).not.toContainText('dominio bloqueado');
  } finally {
    await admin.request.put('/api/admin/settings', { headers: sameOrigin, data: { signup: settings.signup, blockedDomains: settings.blockedDomains } });
    await adminContext.close();
  }
});
