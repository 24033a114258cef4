import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { sameOrigin, signUpViaApi } from './helpers/accounts';
import { expect, failedRequest, test } from './fixtures';

// Acting on several links from the dashboard: a checkbox on each card, «Seleccionar todos los
// filtrados», and pause, resume, tag, untag, export and delete, with «Deshacer» where it can be undone.

async function makeLinks(page: Page, baseURL: string, titles: string[], tags: string[] = []) {
  const ids: number[] = [];
  for (const title of titles) {
    const response = await page.request.post('/api/links', { headers: sameOrigin, data: { title, longUrl: `${baseURL}/?${encodeURIComponent(title)}`, tags } });
    expect(response.status()).toBe(201);
    ids.push((await response.json()).link.id as number);
  }
  return ids;
}

const statusOf = async (page: Page, id: number) => (await (await page.request.get(`/api/links/${id}`)).json()).link.status as string;
const tagsOf = async (page: Page, id: number) => (await (await page.request.get(`/api/links/${id}`)).json()).link.tags as string[];

test('select cards by keyboard, pause them with one notice, undo, tag and untag them', async ({ page, baseURL, consoleErrors }) => {
  test.slow();
  // The refusal of too many tags, which the test causes on purpose.
  consoleErrors.allow(failedRequest(400, '/api/links/bulk-update'));
  await signUpViaApi(page);
  const [uno, dos, tres] = await makeLinks(page, baseURL!, ['Uno', 'Dos', 'Tres'], ['viejo']);
  await page.goto('/dashboard');
  const bar = page.getByRole('region', { name: 'Selección de links' });
  await expect(bar).toContainText('Ningún link seleccionado');

  // Keyboard: the checkbox is reached by Tab and checked by Space.
  const checkUno = page.getByRole('checkbox', { name: 'Seleccionar «Uno»' });
  await checkUno.focus();
  await page.keyboard.press('Space');
  await expect(checkUno).toBeChecked();
  await page.getByRole('checkbox', { name: 'Seleccionar «Dos»' }).check();
  await expect(bar).toContainText('2 links seleccionados');

  await bar.getByRole('button', { name: 'Pausar' }).click();
  const notice = page.getByRole('region', { name: 'Avisos' }).getByRole('status').filter({ hasText: '2 links en pausa.' });
  await expect(notice).toBeVisible();
  await expect(bar.getByRole('status')).toHaveText('2 links en pausa.');
  expect([await statusOf(page, uno!), await statusOf(page, dos!), await statusOf(page, tres!)]).toEqual(['paused', 'paused', 'active']);
  const cards = page.getByRole('list', { name: 'Links' });
  await expect(cards.getByText('En pausa', { exact: true })).toHaveCount(2);

  await notice.getByRole('button', { name: 'Deshacer' }).click();
  await expect(bar.getByRole('status')).toHaveText('Cambio deshecho.');
  expect([await statusOf(page, uno!), await statusOf(page, dos!)]).toEqual(['active', 'active']);

  await bar.getByRole('button', { name: 'Etiquetar' }).click();
  const tagDialog = page.getByRole('dialog', { name: 'Etiquetar 2 links' });
  await tagDialog.getByLabel('Etiquetas (separadas por comas)').fill('a|b');
  await tagDialog.getByRole('button', { name: 'Etiquetar' }).click();
  await expect(tagDialog.getByRole('alert')).toContainText('«|»');
  await tagDialog.getByLabel('Etiquetas (separadas por comas)').fill('verano, playa');
  await tagDialog.getByRole('button', { name: 'Etiquetar' }).click();
  await expect(bar.getByRole('status')).toHaveText('Etiqueta «verano», «playa» añadida a 2 links.');
  expect(await tagsOf(page, uno!)).toEqual(['playa', 'verano', 'viejo']);
  expect(await tagsOf(page, tres!)).toEqual(['viejo']);

  // Past 20 tags on a link, nothing changes, and the bar says why.
  await page.request.patch(`/api/links/${tres}`, { headers: sameOrigin, data: { tags: Array.from({ length: 20 }, (_, i) => `t${i}`) } });
  await page.getByRole('checkbox', { name: 'Seleccionar «Tres»' }).check();
  await bar.getByRole('button', { name: 'Etiquetar' }).click();
  await page.getByRole('dialog', { name: 'Etiquetar 3 links' }).getByLabel('Etiquetas (separadas por comas)').fill('otra');
  await page.getByRole('dialog', { name: 'Etiquetar 3 links' }).getByRole('button', { name: 'Etiquetar' }).click();
  await expect(bar.getByRole('alert')).toHaveText('Con esas etiquetas, algún link tendría más de 20: no se cambió ningún link');
  expect(await tagsOf(page, uno!)).toEqual(['playa', 'verano', 'viejo']);
  await page.getByRole('checkbox', { name: 'Seleccionar «Tres»' }).uncheck();

  await bar.getByRole('button', { name: 'Quitar etiqueta' }).click();
  const untagDialog = page.getByRole('dialog', { name: 'Quitar una etiqueta de 2 links' });
  await untagDialog.getByLabel('Etiqueta').selectOption('viejo');
  await untagDialog.getByRole('button', { name: 'Quitar etiqueta' }).click();
  await expect(bar.getByRole('status')).toHaveText('Etiqueta «viejo» quitada de 2 links.');
  expect(await tagsOf(page, dos!)).toEqual(['playa', 'verano']);
  // Undone: the tag is back on the very links it was taken from.
  await page.getByRole('region', { name: 'Avisos' }).getByRole('status').filter({ hasText: 'quitada' }).getByRole('button', { name: 'Deshacer' }).click();
  await expect(bar.getByRole('status')).toHaveText('Cambio deshecho.');
  expect(await tagsOf(page, dos!)).toEqual(['playa', 'verano', 'viejo']);
});

test('select every filtered link, export them, and delete them after one confirmation', async ({ page, baseURL }) => {
  test.slow();
  await signUpViaApi(page);
  await makeLinks(page, baseURL!, ['Campaña 1', 'Campaña 2', 'Campaña 3'], ['campaña']);
  const [keep] = await makeLinks(page, baseURL!, ['Otro']);
  await page.goto('/dashboard?tag=campa%C3%B1a');
  const cards = page.getByRole('list', { name: 'Links' }).getByRole('heading');
  await expect(cards).toHaveText(['Campaña 3', 'Campaña 2', 'Campaña 1']);
  const bar = page.getByRole('region', { name: 'Selección de links' });
  await bar.getByRole('button', { name: 'Seleccionar todos los filtrados' }).click();
  await expect(bar).toContainText('3 links seleccionados');
  await expect(page.getByRole('checkbox', { name: 'Seleccionar «Campaña 2»' })).toBeChecked();

  const download = page.waitForEvent('download');
  await bar.getByRole('button', { name: 'Exportar' }).click();
  const file = await download;
  const csv = await readFile((await file.path())!, 'utf8');
  const lines = csv.replace(/^\uFEFF/, '').trim().split('\r\n');
  expect(lines[0]).toBe('title,longUrl,customUrl,tags,shortLink,clicks,scans,status,createdAt');
  expect(lines.slice(1).map((line) => line.split(',')[0]).sort()).toEqual(['Campaña 1', 'Campaña 2', 'Campaña 3']);

  await bar.getByRole('button', { name: 'Eliminar' }).click();
  const confirm = page.getByRole('dialog', { name: '¿Eliminar 3 links?' });
  await expect(confirm).toContainText('No se puede deshacer');
  await confirm.getByRole('button', { name: 'Cancelar' }).click();
  await expect(cards).toHaveCount(3);
  await bar.getByRole('button', { name: 'Eliminar' }).click();
  await confirm.getByRole('button', { name: 'Eliminar 3 links' }).click();
  await expect(bar.getByRole('status')).toHaveText('3 links eliminados.');
  await expect(page.getByText('Ningún link coincide con el filtro.')).toBeVisible();
  const left = (await (await page.request.get('/api/links')).json()).links.map((link: { id: number }) => link.id);
  expect(left).toEqual([keep]);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test('the selection bar and its actions fit 375 px', async ({ page, baseURL }) => {
    await signUpViaApi(page);
    await makeLinks(page, baseURL!, ['Teléfono']);
    await page.goto('/dashboard');
    await page.getByRole('checkbox', { name: 'Seleccionar «Teléfono»' }).check();
    await expect(page.getByRole('group', { name: 'Acciones sobre los seleccionados' }).getByRole('button', { name: 'Eliminar' })).toBeInViewport();
    const width = await page.evaluate('document.documentElement.scrollWidth');
    expect(width).toBeLessThanOrEqual(375);
  });
});
