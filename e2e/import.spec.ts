import { linkMessages } from '../common/links/link-messages';
import { signUpViaApi } from './helpers/accounts';
import { expect, failedRequest, test } from './fixtures';

// The import dialog in a real Chromium: a file chosen, its first rows previewed, sent, and each
// refused row listed with its Spanish reason while the others are created.

test('import a CSV from the dashboard: preview, progress, then the created links and each refused row', async ({ page }) => {
  test.slow();
  await signUpViaApi(page);
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Importar' }).click();
  const dialog = page.getByRole('dialog', { name: 'Importar links' });
  const csv = 'title,longUrl,customUrl,tags\r\nFolleto,https://example.com/folleto,,impreso|Verano\r\nSin destino,notaurl,,\r\nPrecios,https://example.com/precios,,\r\n';
  await dialog.getByLabel('Archivo CSV').setInputFiles({ name: 'links.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  const preview = dialog.getByRole('table', { name: 'Vista previa' });
  await expect(preview.getByRole('columnheader')).toHaveText(['title', 'longUrl', 'customUrl', 'tags']);
  await expect(preview.getByRole('row')).toHaveCount(4);

  await dialog.getByRole('button', { name: 'Importar archivo' }).click();
  await expect(dialog.getByRole('status')).toContainText('2 links creados, 1 fila con errores.');
  const failed = dialog.getByRole('table', { name: 'Filas no importadas' });
  await expect(failed.getByRole('row').nth(1)).toHaveText(`3${linkMessages.longUrlInvalid}`);

  await page.keyboard.press('Escape');
  // Created a few at a time: both are there, in whichever order they were made.
  const titles = page.getByRole('list', { name: 'Links' }).getByRole('heading');
  await expect(titles).toHaveCount(2);
  expect((await titles.allTextContents()).sort()).toEqual(['Folleto', 'Precios']);
});

test('a file that is not CSV is refused with a clear message', async ({ page, consoleErrors }) => {
  consoleErrors.allow(failedRequest(400, '/api/links/import'));
  await signUpViaApi(page);
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Importar' }).click();
  const dialog = page.getByRole('dialog', { name: 'Importar links' });
  await dialog.getByLabel('Archivo CSV').setInputFiles({ name: 'foto.csv', mimeType: 'text/csv', buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d]) });
  await dialog.getByRole('button', { name: 'Importar archivo' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(linkMessages.importNotCsv);
});
