import { signUpViaApi, sameOrigin } from './helpers/accounts';
import { expect, test } from './fixtures';

// Tags in a real Chromium: given in the create dialog, shown as chips, a filter and a sort kept in
// the address (a reload and a shared address show the same view).

// Headless Chromium says so in its user agent, and a bot's visit is not counted as a click.
test.use({
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
});

test('tags from the create dialog show as chips; the tag filter and the sort live in the address', async ({ page, baseURL }) => {
  test.slow();
  await signUpViaApi(page);
  const make = async (title: string, tags: string[]) => {
    const response = await page.request.post('/api/links', { headers: sameOrigin, data: { title, longUrl: `${baseURL}/?${title}`, tags } });
    expect(response.status()).toBe(201);
    return (await response.json()).link.id as number;
  };
  const alfa = await make('Alfa', ['Verano']);
  await make('Bravo', ['otoño']);
  const charlie = await make('Charlie', ['verano', 'otoño']);
  // Clicks decide the "Más clics" order: Alfa above Charlie.
  const visit = await page.request.get(`/${(await (await page.request.get(`/api/links/${alfa}`)).json()).link.shortCode}`, { maxRedirects: 0 });
  expect(visit.status()).toBe(302);
  // Clicks are written in batches: wait until the list has it.
  await expect.poll(async () => (await (await page.request.get(`/api/links/${alfa}`)).json()).link.clicks).toBe(1);

  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Crear link' }).click();
  const dialog = page.getByRole('dialog', { name: 'Crear link' });
  await dialog.getByLabel('Nombre del link').fill('Delta');
  await dialog.getByLabel('URL original').fill(`${baseURL}/?delta`);
  await dialog.getByLabel('Etiquetas (opcional, separadas por comas)').fill(` VERANO , ${'x'.repeat(41)}`);
  await dialog.getByRole('button', { name: 'Crear' }).click();
  await expect(dialog.locator('#link-tags-error')).toContainText('Cada etiqueta puede tener como máximo 40 caracteres');
  await dialog.getByLabel('Etiquetas (opcional, separadas por comas)').fill(' VERANO , playa');
  await dialog.getByRole('button', { name: 'Crear' }).click();
  await expect(page).toHaveURL(/\/link\/\d+$/);

  await page.goto('/dashboard');
  const cards = page.getByRole('list', { name: 'Links' }).getByRole('heading');
  await expect(cards).toHaveText(['Delta', 'Charlie', 'Bravo', 'Alfa']);
  // The first spelling of a tag is its name everywhere.
  const delta = page.getByRole('list', { name: 'Links' }).getByRole('listitem').filter({ hasText: 'Delta' });
  await expect(delta.getByRole('list', { name: 'Etiquetas' }).getByRole('link')).toHaveText(['playa', 'Verano']);

  const tagFilter = page.getByLabel('Filtrar por etiqueta');
  await expect(tagFilter.getByRole('option')).toHaveText(['Todas las etiquetas', 'otoño (2)', 'playa (1)', 'Verano (3)']);
  await tagFilter.selectOption('Verano');
  await expect(page).toHaveURL(/[?&]tag=Verano/);
  await expect(cards).toHaveText(['Delta', 'Charlie', 'Alfa']);
  await page.getByLabel('Ordenar').selectOption({ label: 'Más clics' });
  await expect(page).toHaveURL(/sort=clicks/);
  await expect(cards).toHaveText(['Alfa', 'Delta', 'Charlie']);

  // A reload keeps the view, and so does the address opened anew (as someone it was shared with).
  await page.reload();
  await expect(tagFilter).toHaveValue('Verano');
  await expect(page.getByLabel('Ordenar')).toHaveValue('clicks-desc');
  await expect(cards).toHaveText(['Alfa', 'Delta', 'Charlie']);
  await page.goto('/dashboard?tag=OTO%C3%91O&sort=title&order=desc');
  await expect(cards).toHaveText(['Charlie', 'Bravo']);
  await expect(page.getByLabel('Ordenar')).toHaveValue('title-desc');

  // A chip opens the list of its tag.
  await page.getByRole('list', { name: 'Links' }).getByRole('listitem').filter({ hasText: 'Charlie' }).getByRole('link', { name: 'Verano' }).click();
  await expect(page).toHaveURL(/\/dashboard\?tag=Verano$/);
  await expect(cards).toHaveText(['Delta', 'Charlie', 'Alfa']);
  expect(charlie).toBeGreaterThan(alfa);
});
