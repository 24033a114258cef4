import { previewMessages } from '../common/previews/preview-messages';
import { picturePng, sameOrigin, signUpViaApi } from './helpers/accounts';
import { expect, test } from './fixtures';

// A link's card for chat apps, set in the edit dialog with a real picture; then the short link
// asked for as WhatsApp asks for it (the card) and as a person's browser does (the redirect).

test.use({
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
});

const WHATSAPP = 'WhatsApp/2.23.20.0 A';

/** The content of each <meta> by its property or name. */
const metaOf = (html: string) =>
  Object.fromEntries([...html.matchAll(/<meta (?:property|name)="([^"]+)" content="([^"]*)">/g)].map((match) => [match[1]!, match[2]!]));

test('set a preview with an image in the edit dialog; a chat app gets the card, a person the redirect', async ({ page, baseURL }) => {
  test.slow();
  await signUpViaApi(page);
  const alias = `verano-${Date.now().toString(36)}`;
  const created = await page.request.post('/api/links', {
    headers: sameOrigin,
    data: { title: 'Campaña de verano', longUrl: 'https://ejemplo.com/verano', customUrl: alias },
  });
  expect(created.status()).toBe(201);
  const { link } = (await created.json()) as { link: { id: number } };

  await page.goto(`/link/${link.id}`);
  await page.getByRole('button', { name: 'Editar link' }).click();
  const dialog = page.getByRole('dialog', { name: 'Editar link' });
  const section = dialog.getByRole('group', { name: 'Vista previa al compartir' });
  const card = section.getByRole('figure', { name: 'Así se verá al compartirlo en un chat' });
  // Nothing typed yet: the card shows the link's own title.
  await expect(card).toContainText('Campaña de verano');

  // Typed with the keyboard; the card follows.
  await section.getByLabel('Título (opcional)').fill('Rebajas de verano');
  await section.getByLabel('Descripción (opcional)').fill('Todo al 50 % "hasta" el domingo <ya>');
  await expect(card).toContainText('Rebajas de verano');
  await expect(card).toContainText('Todo al 50 % "hasta" el domingo <ya>');

  // A text file is refused before anything is sent; a real picture is saved at once.
  await section.getByLabel(/^Imagen/).setInputFiles({ name: 'notas.txt', mimeType: 'text/plain', buffer: Buffer.from('hola') });
  await expect(section.locator('#link-previewImage-error')).toContainText(previewMessages.imageType);
  await section.getByLabel(/^Imagen/).setInputFiles({ name: 'tarjeta.png', mimeType: 'image/png', buffer: await picturePng(400) });
  await expect(page.getByText(previewMessages.imageSaved)).toBeVisible();
  await expect(card.locator('img')).toHaveAttribute('src', /\/storage\/previews\/pv-/);
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Cambios guardados.')).toBeVisible();

  const answer = await page.request.get(`/${alias}`, { headers: { 'user-agent': WHATSAPP }, maxRedirects: 0 });
  expect(answer.status()).toBe(200);
  expect(answer.headers()['content-security-policy']).toContain("script-src 'none'");
  const html = await answer.text();
  expect(html).not.toMatch(/<script/i);
  const meta = metaOf(html);
  expect(meta).toMatchObject({
    'og:title': 'Rebajas de verano',
    'og:description': 'Todo al 50 % &quot;hasta&quot; el domingo &lt;ya&gt;',
    'twitter:card': 'summary_large_image',
  });
  expect(meta['og:url']).toMatch(new RegExp(`/${alias}$`));
  expect(meta['og:image']).toMatch(/^https?:\/\/[^/]+\/storage\/previews\/pv-\d+-\d+-[A-Za-z0-9_-]+\.png$/);
  const image = await page.request.get(new URL(new URL(meta['og:image']!).pathname, baseURL).href);
  expect(image.status()).toBe(200);
  expect(image.headers()['content-type']).toBe('image/png');

  const person = await page.request.get(`/${alias}`, { maxRedirects: 0 });
  expect(person.status()).toBe(302);
  expect(person.headers().location).toBe('https://ejemplo.com/verano');
});

test('the image is removed only after a question, and the card shows none', async ({ page }) => {
  await signUpViaApi(page);
  const created = await page.request.post('/api/links', { headers: sameOrigin, data: { title: 'Con foto', longUrl: 'https://ejemplo.com/foto' } });
  const { link } = (await created.json()) as { link: { id: number } };
  const put = await page.request.put(`/api/links/${link.id}/preview-image`, {
    headers: sameOrigin,
    multipart: { image: { name: 'a.png', mimeType: 'image/png', buffer: await picturePng(200) } },
  });
  expect(put.status(), await put.text()).toBe(200);

  await page.goto(`/link/${link.id}`);
  await page.getByRole('button', { name: 'Editar link' }).click();
  const section = page.getByRole('dialog', { name: 'Editar link' }).getByRole('group', { name: 'Vista previa al compartir' });
  await expect(section.getByRole('figure').locator('img')).toBeVisible();
  await section.getByRole('button', { name: 'Quitar imagen' }).click();
  const confirm = page.getByRole('dialog', { name: '¿Quitar la imagen de la vista previa?' });
  await confirm.getByRole('button', { name: 'Quitar' }).click();
  await expect(page.getByText(previewMessages.imageRemoved)).toBeVisible();
  await expect(section.getByRole('figure')).toContainText('Sin imagen');
  const after = await page.request.get(`/api/links/${link.id}`);
  expect(((await after.json()) as { link: { preview: unknown } }).link.preview).toBeNull();
});
