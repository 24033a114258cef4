import AxeBuilder from '@axe-core/playwright';
import { linkMessages } from '../common/links/link-messages';
import { signUpViaApi } from './helpers/accounts';
import type { Page } from '@playwright/test';
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
  await expect(preview.getByRole('columnheader')).toHaveText(['Fila', 'title', 'longUrl', 'customUrl', 'tags']);
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

/** The open dialog as axe reads it: no moderate, serious or critical finding. */
async function expectNoAxeFindings(page: Page) {
  const results = await new AxeBuilder({ page }).include('[role="dialog"]').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  const found = results.violations.filter((violation) => ['moderate', 'serious', 'critical'].includes(violation.impact ?? ''));
  expect(found.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

test('a CSV saved by Spanish Excel: separator and encoding said, numbered rows, an unclosed quote warned on its line, no second import, at 375 px', async ({ page }) => {
  test.slow();
  await page.setViewportSize({ width: 375, height: 740 });
  await signUpViaApi(page);
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Importar' }).click();
  const dialog = page.getByRole('dialog', { name: 'Importar links' });
  await expect(dialog.getByText('Sin archivo elegido')).toBeVisible();
  const csv = 'title;longUrl;customUrl;tags\r\nÑoquis caseros;https://example.com/noquis;;cocina|Año\r\nRoto;"https://example.com/roto;;\r\nPrecios;https://example.com/precios;;\r\n';
  // Windows-1252, as Excel saves «CSV (delimitado por comas)» on a Spanish Windows: 'Ñ' is one byte.
  await dialog.getByLabel('Archivo CSV').setInputFiles({ name: 'excel.csv', mimeType: 'text/csv', buffer: Buffer.from(csv, 'latin1') });
  await expect(dialog.getByText('excel.csv')).toBeVisible();
  await expect(dialog.getByText('Separador: punto y coma · Codificación: Windows-1252')).toBeVisible();
  const preview = dialog.getByRole('table', { name: 'Vista previa' });
  await expect(preview.getByRole('row')).toHaveText([
    'FilatitlelongUrlcustomUrltags',
    '2Ñoquis caseroshttps://example.com/noquiscocina|Año',
    '3Comillas sin cerrar: esta fila no se importará',
    '4Precioshttps://example.com/precios',
  ]);
  await expect(dialog.getByText('La fila 3 no tiene el formato CSV correcto')).toBeVisible();
  await expect(dialog.getByText('El archivo tiene 3 filas; en esta hora tu cuenta puede crear 200 links más, así que caben todas.')).toBeVisible();
  await expectNoAxeFindings(page);

  const importButton = dialog.getByRole('button', { name: 'Importar archivo' });
  await importButton.click();
  const status = dialog.getByRole('status');
  await expect(status).toContainText('2 links creados, 1 fila con errores.');
  await expect(status).toBeInViewport();
  const failed = dialog.getByRole('table', { name: 'Filas no importadas' });
  await expect(failed.getByRole('row').nth(1)).toHaveText(`3${linkMessages.importRowMalformed}`);
  // The file is done: pressing again cannot import it twice.
  await expect(importButton).toBeDisabled();
  await expect(dialog.getByText('Sin archivo elegido')).toBeVisible();
  await expectNoAxeFindings(page);
  expect(await page.locator('html').evaluate((html: { scrollWidth: number }) => html.scrollWidth)).toBeLessThanOrEqual(375);

  await page.keyboard.press('Escape');
  const titles = page.getByRole('list', { name: 'Links' }).getByRole('heading');
  await expect(titles).toHaveCount(2);
  expect((await titles.allTextContents()).sort()).toEqual(['Precios', 'Ñoquis caseros']);
});

test('the hourly quota: said before the import, the rows created counted while it runs, and the wait until the next creation after it', async ({ page }) => {
  test.slow();
  await signUpViaApi(page);
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Importar' }).click();
  const dialog = page.getByRole('dialog', { name: 'Importar links' });
  const rows = Array.from({ length: 201 }, (_, i) => `Fila ${i + 2},https://example.com/${i + 2},,`);
  const csv = ['title,longUrl,customUrl,tags', ...rows].join('\n');
  await dialog.getByLabel('Archivo CSV').setInputFiles({ name: 'grande.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await expect(dialog.getByText('Separador: coma · Codificación: UTF-8')).toBeVisible();
  await expect(
    dialog.getByText(
      'El archivo tiene 201 filas, pero en esta hora tu cuenta solo puede crear 200 links más (el límite es de 200 por hora, importaciones incluidas): se crearán las 200 primeras filas válidas y el resto se rechazará.',
    ),
  ).toBeVisible();

  // The import is held until the count has been seen; the count the server gives is fixed here.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/links/import', async (route) => {
    await held;
    await route.continue();
  });
  await page.route('**/api/links/import/progress', (route) => route.fulfill({ json: { running: true, done: 120, total: 201 } }));
  await dialog.getByRole('button', { name: 'Importar archivo' }).click();
  await expect(dialog.getByText('Creando 120 de 201…')).toBeVisible();
  release();

  await expect(dialog.getByRole('status')).toHaveText(
    /^200 links creados, 1 fila con errores\. Has llegado al límite de links por hora \(1 fila no se creó por él\): podrás crear el próximo link dentro de (60|59) minutos\./,
  );
  const failed = dialog.getByRole('table', { name: 'Filas no importadas' });
  await expect(failed.getByRole('row').nth(1)).toHaveText(`202${linkMessages.importRowOverQuota}`);
});
