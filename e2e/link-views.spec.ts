import { sameOrigin, signUpViaApi } from './helpers/accounts';
import { expect, test } from './fixtures';

// How a link reads to its owner: the state filter kept in the address (and through sign-in), the
// tags on the detail page, the destination in the edit dialog as the card shows it, and the state
// badge on one line on a phone.

test('the state filter survives a reload, and a signed-out deep link keeps it through sign-in', async ({ page, baseURL }) => {
  const account = await signUpViaApi(page);
  for (const [title, paused] of [['Activo uno', false], ['Pausado uno', true]] as const) {
    const made = await page.request.post('/api/links', { headers: sameOrigin, data: { title, longUrl: `${baseURL}/?${paused}` } });
    expect(made.status()).toBe(201);
    if (paused) {
      const id = (await made.json()).link.id as number;
      expect((await page.request.patch(`/api/links/${id}`, { headers: sameOrigin, data: { paused: true } })).status()).toBe(200);
    }
  }
  await page.goto('/dashboard');
  const cards = page.getByRole('list', { name: 'Links' }).getByRole('heading');
  await expect(cards).toHaveText(['Pausado uno', 'Activo uno']);
  await page.getByLabel('Filtrar por estado').selectOption({ label: 'En pausa' });
  await expect(page).toHaveURL(/[?&]status=paused/);
  await expect(cards).toHaveText(['Pausado uno']);
  await page.reload();
  await expect(page.getByLabel('Filtrar por estado')).toHaveValue('paused');
  await expect(cards).toHaveText(['Pausado uno']);

  // Signed out, the same address leads to sign-in and, after it, back to the filtered view.
  await page.context().clearCookies();
  await page.goto('/dashboard?status=paused&sort=title');
  await expect(page).toHaveURL(/\/auth\?next=/);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Contraseña').fill(account.password);
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
  await expect(page).toHaveURL(/\/dashboard\?status=paused&sort=title$/);
  await expect(page.getByLabel('Filtrar por estado')).toHaveValue('paused');
  await expect(cards).toHaveText(['Pausado uno']);
});

test('the detail page shows the tags; the edit dialog shows the destination decoded', async ({ page, baseURL }) => {
  await signUpViaApi(page);
  const made = await page.request.post('/api/links', {
    headers: sameOrigin,
    data: { title: 'Receta', longUrl: `${baseURL}/recetas/Ñoquis?salsa=tomate`, tags: ['cocina', 'Italia'] },
  });
  expect(made.status()).toBe(201);
  const link = (await made.json()).link as { id: number; originalUrl: string };
  expect(link.originalUrl).toContain('%C3%91oquis');

  await page.goto(`/link/${link.id}`);
  await expect(page.getByRole('list', { name: 'Etiquetas' }).getByRole('link')).toHaveText(['cocina', 'Italia']);
  await page.getByRole('list', { name: 'Etiquetas' }).getByRole('link', { name: 'cocina' }).click();
  await expect(page).toHaveURL(/\/dashboard\?tag=cocina$/);

  const card = page.getByRole('list', { name: 'Links' }).getByRole('listitem').filter({ hasText: 'Receta' });
  await expect(card).toContainText('/recetas/Ñoquis?salsa=tomate');
  await card.getByRole('button', { name: 'Editar link' }).click();
  const dialog = page.getByRole('dialog', { name: 'Editar link' });
  await expect(dialog.getByLabel('URL original')).toHaveValue(`${baseURL}/recetas/Ñoquis?salsa=tomate`);
  // Saved untouched, the destination is the same address.
  await dialog.getByLabel('Nombre del link').fill('Receta de ñoquis');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog).toBeHidden();
  const after = await (await page.request.get(`/api/links/${link.id}`)).json();
  expect(after.link.originalUrl).toBe(link.originalUrl);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test('«En pausa» stays on one line on a card', async ({ page, baseURL }) => {
    await signUpViaApi(page);
    const made = await page.request.post('/api/links', {
      headers: sameOrigin,
      data: { title: 'Un título bastante largo para un teléfono', longUrl: `${baseURL}/?pausa`, customUrl: 'una-direccion-muy-larga-de-verdad' },
    });
    const id = (await made.json()).link.id as number;
    expect((await page.request.patch(`/api/links/${id}`, { headers: sameOrigin, data: { paused: true } })).status()).toBe(200);
    await page.goto('/dashboard');
    const badge = page.getByRole('list', { name: 'Links' }).getByText('En pausa', { exact: true });
    await expect(badge).toBeVisible();
    const box = await badge.boundingBox();
    // One line of 16 px plus padding and border is 22 px high; two lines would be 38.
    expect(box!.height).toBeLessThan(30);
  });
});
