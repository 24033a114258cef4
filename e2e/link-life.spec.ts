import { linkMessages } from '../common/links/link-messages';
import { signUpViaApi, sameOrigin } from './helpers/accounts';
import { expect, failedRequest, test } from './fixtures';

// A link's life in a real Chromium: edited from its card and its page, moved to a new alias,
// paused, protected by a password, expired; and what its visitors see at each step.

// Headless Chromium says so in its user agent, and a bot never unlocks a link nor uses up a limit.
test.use({
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
});

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

test('edit a link from its card: a bad destination is refused under its field, then the alias moves and the link pauses', async ({
  page,
  baseURL,
  consoleErrors,
}) => {
  test.slow();
  await signUpViaApi(page);
  const before = `folleto-${unique()}`;
  const after = `cartel-${unique()}`;
  const created = await page.request.post('/api/links', { headers: sameOrigin, data: { title: 'Campaña de otoño', longUrl: `${baseURL}/?v=1`, customUrl: before } });
  expect(created.status()).toBe(201);

  await page.goto('/dashboard');
  const card = page.getByRole('listitem').filter({ hasText: 'Campaña de otoño' });
  await expect(card.getByText('Activo', { exact: true })).toBeVisible();
  await card.getByRole('button', { name: 'Editar link' }).click();
  const dialog = page.getByRole('dialog', { name: 'Editar link' });
  await expect(dialog.getByLabel('Nombre del link')).toHaveValue('Campaña de otoño');
  await expect(dialog.getByLabel('URL personalizada (opcional)')).toHaveValue(before);

  // The same rules and messages as creation, under the field.
  await dialog.getByLabel('URL original').fill('ftp://ejemplo.com');
  await dialog.getByLabel('Límite de clics (opcional)').fill('0');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog.locator('#link-longUrl-error')).toContainText(linkMessages.longUrlProtocol);
  await expect(dialog.locator('#link-maxClicks-error')).toContainText(linkMessages.maxClicksInvalid);

  await dialog.getByLabel('URL original').fill(`${baseURL}/?v=2`);
  await dialog.getByLabel('Límite de clics (opcional)').fill('');
  await dialog.getByLabel('URL personalizada (opcional)').fill(after);
  await dialog.getByLabel(/En pausa/).check();
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog).toBeHidden();

  await expect(card.getByText('En pausa', { exact: true })).toBeVisible();
  await expect(card.getByText(`Direcciones anteriores: ${before}`)).toBeVisible();

  // The status filter.
  await page.getByLabel('Filtrar por estado').selectOption({ label: 'En pausa' });
  await expect(card).toBeVisible();
  await page.getByLabel('Filtrar por estado').selectOption({ label: 'Activo' });
  await expect(page.getByText('Ningún link coincide con el filtro.')).toBeVisible();

  // Its visitors, by the new address and by the old one, see that it is not available.
  for (const address of [after, before]) {
    consoleErrors.allow(failedRequest(404, `/${address}`));
    const response = await page.goto(`/${address}`);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Este link no está disponible' })).toBeVisible();
  }

  // On its page, the old address can be freed.
  await page.goto('/dashboard');
  await page.getByRole('link', { name: 'Campaña de otoño' }).click();
  await expect(page.getByRole('heading', { name: 'Campaña de otoño' })).toBeVisible();
  await page.getByRole('button', { name: `Liberar /${before}` }).click();
  // Freeing cannot be undone, so it asks first, and says what printed codes will do.
  const confirmFree = page.getByRole('dialog', { name: `¿Liberar /${before}?` });
  await expect(confirmFree).toContainText('los códigos QR impresos con ella, dejarán de funcionar');
  await confirmFree.getByRole('button', { name: 'Cancelar' }).click();
  await expect(confirmFree).toBeHidden();
  await expect(page.getByRole('button', { name: `Liberar /${before}` })).toBeFocused();
  await page.getByRole('button', { name: `Liberar /${before}` }).click();
  await confirmFree.getByRole('button', { name: 'Liberar' }).click();
  await expect(page.getByRole('button', { name: `Liberar /${before}` })).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: `/${before} liberada.` })).toHaveAttribute('data-tone', 'success');
});

test('a password set from the detail page: visitors get the form, a wrong password is refused, the right one opens it', async ({
  page,
  baseURL,
  consoleErrors,
}) => {
  test.slow();
  await signUpViaApi(page);
  const alias = `secreto-${unique()}`;
  const created = await page.request.post('/api/links', { headers: sameOrigin, data: { title: 'Documento privado', longUrl: `${baseURL}/?abierto=1`, customUrl: alias } });
  const { link } = await created.json();

  await page.goto(`/link/${link.id}`);
  await page.getByRole('button', { name: 'Editar link' }).click();
  const dialog = page.getByRole('dialog', { name: 'Editar link' });
  await dialog.getByLabel('Contraseña para abrir el link (opcional)').fill('abre-sesamo');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Protegido con contraseña')).toBeVisible();

  await page.goto(`/${alias}`);
  await expect(page.getByRole('heading', { name: 'Este link está protegido' })).toBeVisible();
  consoleErrors.allow(failedRequest(401, `/${alias}`));
  await page.getByLabel('Contraseña').fill('no-es-esta');
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(page.getByRole('alert')).toHaveText('Contraseña incorrecta');
  expect(page.url()).not.toContain('no-es-esta');

  await page.getByLabel('Contraseña').fill('abre-sesamo');
  await page.getByRole('button', { name: 'Continuar' }).click();
  await page.waitForURL(`${baseURL}/?abierto=1`);
  expect(page.url()).not.toContain('abre-sesamo');
});

test('a link with a click limit lets that many visits through, then shows that it has expired', async ({ page, baseURL, consoleErrors }) => {
  await signUpViaApi(page);
  const alias = `unico-${unique()}`;
  const created = await page.request.post('/api/links', { headers: sameOrigin, data: { title: 'Una vez', longUrl: `${baseURL}/?una=1`, customUrl: alias } });
  const { link } = await created.json();
  expect((await page.request.patch(`/api/links/${link.id}`, { headers: sameOrigin, data: { maxClicks: 1 } })).status()).toBe(200);

  await page.goto(`/${alias}`);
  await page.waitForURL(`${baseURL}/?una=1`);
  consoleErrors.allow(failedRequest(410, `/${alias}`));
  const response = await page.goto(`/${alias}`);
  expect(response?.status()).toBe(410);
  await expect(page.getByRole('heading', { name: 'Este link ha caducado' })).toBeVisible();

  await page.goto(`/link/${link.id}`);
  await expect(page.getByText('Caducado', { exact: true })).toBeVisible();
  await expect(page.getByText('Límite: 1 de 1 clics')).toBeVisible();
});
