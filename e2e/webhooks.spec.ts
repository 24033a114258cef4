import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { Webhook as Verifier } from 'standardwebhooks';
import { expect, test } from './fixtures';
import { sameOrigin, signUpViaApi } from './helpers/accounts';
import { createTeamViaApi } from './helpers/workspaces';

// The workspace's «Webhooks» page (issue 33) against a receiver this spec starts: created with its
// URL, events and a link, the secret shown once and copied, «Enviar prueba» arriving signed with
// it, a click of the chosen link arriving, disabled and enabled, a receiver that fails shown in the
// delivery log with its status and next attempt, deleted after a question.
// The e2e server runs with ALLOW_PRIVATE_DESTINATIONS=true, so a receiver on 127.0.0.1 is accepted.

const receiverPort = Number(process.env.E2E_PORT ?? 4173) + 2;

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

let receiver: Server;
const received: Received[] = [];

test.beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.statusCode = request.url === '/falla' ? 500 : 200;
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(receiverPort, '127.0.0.1', resolve));
});

test.afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
});

/** The body of the receiver's deliveries of `type`, checked against the webhook's secret. */
function deliveriesOf(type: string, secret: string): Array<{ type: string; data: Record<string, unknown> }> {
  const verifier = new Verifier(secret);
  return received
    .map((delivery) => verifier.verify(delivery.body, delivery.headers as Record<string, string>) as { type: string; data: Record<string, unknown> })
    .filter((payload) => payload.type === type);
}

test('creates a webhook, shows its secret once, sends a signed test and a click, disables, fails, and deletes it', async ({ page, context, request }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signUpViaApi(page, { name: 'Rita Integraciones' });
  const team = await createTeamViaApi(page, 'Integraciones');
  const made = await page.request.post(`/api/links?workspace=${team.slug}`, {
    headers: sameOrigin,
    data: { title: 'Oferta de invierno', longUrl: 'https://ejemplo.com/invierno' },
  });
  expect(made.status(), await made.text()).toBe(201);
  const link = (await made.json()).link as { id: number; shortLink: string };

  await page.goto(`/w/${team.slug}`);
  await page.getByRole('navigation', { name: 'Espacio de trabajo' }).getByRole('link', { name: 'Webhooks' }).click();
  await expect(page).toHaveURL(`/w/${team.slug}/webhooks`);
  await expect(page.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeVisible();

  // Checked as typed, under the field.
  const form = page.getByRole('form', { name: 'Crear webhook' });
  const url = form.getByLabel('URL que recibirá los avisos');
  await url.fill('crm.empresa.es');
  await form.getByRole('button', { name: 'Crear webhook' }).click();
  await expect(form.getByText('Escribe una URL completa que empiece por https:// o http://')).toBeVisible();
  await expect(url).toBeFocused();

  await url.fill(`http://127.0.0.1:${receiverPort}/recibe`);
  await expect(form.getByRole('checkbox', { name: 'Clic en un enlace' })).toBeChecked();
  await form.getByRole('checkbox', { name: 'Enlace creado' }).check();
  // Only the chosen link's events.
  await form.getByLabel('Solo estos links (opcional)').fill('invierno');
  await form.getByRole('button', { name: /Añadir «Oferta de invierno»/ }).click();
  await expect(form.getByRole('list', { name: 'Links elegidos' })).toContainText('Oferta de invierno');
  await form.getByRole('button', { name: 'Crear webhook' }).click();

  // The secret, once, with its warning and its copy button.
  const secretBox = page.getByRole('region', { name: 'Secreto del webhook' });
  await expect(secretBox.getByText('Copia el secreto ahora: no se volverá a mostrar.')).toBeVisible();
  const secret = (await page.getByTestId('webhook-secret').textContent())!.trim();
  expect(secret).toMatch(/^whsec_/);
  await secretBox.getByRole('button', { name: 'Copiar el secreto' }).click();
  expect(await page.evaluate('navigator.clipboard.readText()')).toBe(secret);

  const card = page.getByRole('group', { name: `http://127.0.0.1:${receiverPort}/recibe` });
  await expect(card.getByText('Activo', { exact: true })).toBeVisible();
  await expect(card.getByText('Clic en un enlace · Enlace creado')).toBeVisible();
  await expect(card.getByText('1 link elegido')).toBeVisible();
  await secretBox.getByRole('button', { name: 'Ya lo he guardado' }).click();
  await expect(secretBox).toHaveCount(0);
  await page.reload();
  await expect(page.getByText(secret)).toHaveCount(0);

  // «Enviar prueba»: a ping signed with the secret, and the log says it was delivered.
  await card.getByRole('button', { name: 'Enviar prueba' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Prueba enviada' })).toBeVisible();
  await expect.poll(() => deliveriesOf('ping', secret).length).toBe(1);
  const log = card.getByRole('list', { name: 'Envíos' });
  await expect(log.getByRole('listitem').first()).toContainText('Entregado');
  await expect(log.getByRole('listitem').first()).toContainText('200');

  // A click of the chosen link arrives, without an IP.
  const visit = await request.get(link.shortLink, { maxRedirects: 0 });
  expect(visit.status()).toBe(302);
  await expect.poll(() => deliveriesOf('link.clicked', secret).length, { timeout: 15_000 }).toBe(1);
  const [click] = deliveriesOf('link.clicked', secret);
  expect(click!.data).toMatchObject({ linkId: link.id, shortLink: link.shortLink });
  // The click as the statistics keep it, and nothing more: no field for the visitor's address.
  expect(Object.keys(click!.data).sort()).toEqual(
    ['browser', 'city', 'country', 'destination', 'device', 'linkId', 'os', 'qr', 'referrer', 'bot', 'clickedAt', 'shortLink'].sort(),
  );
  expect(JSON.stringify(click!.data).replace(link.shortLink, '')).not.toContain('127.0.0.1');

  // Disabled and enabled again.
  await card.getByRole('button', { name: 'Desactivar' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Webhook desactivado' })).toBeVisible();
  await expect(card.getByText('Desactivado', { exact: true })).toBeVisible();
  await card.getByRole('button', { name: 'Activar' }).click();
  await expect(card.getByText('Activo', { exact: true })).toBeVisible();

  // A receiver that answers 500: the log shows the status and when Corto tries again.
  await card.getByRole('button', { name: 'Editar' }).click();
  await card.getByLabel('URL que recibirá los avisos').fill(`http://127.0.0.1:${receiverPort}/falla`);
  await card.getByRole('button', { name: 'Guardar webhook' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Webhook guardado' })).toBeVisible();
  const failing = page.getByRole('group', { name: `http://127.0.0.1:${receiverPort}/falla` });
  await failing.getByRole('button', { name: 'Enviar prueba' }).click();
  const deliveries = failing.getByRole('list', { name: 'Envíos' }).getByRole('listitem');
  // The test button's ping is tried once: failed, with a button to send it again.
  await expect(deliveries.first()).toContainText('Fallido');
  await expect(deliveries.first()).toContainText('500');
  await expect(deliveries.first().getByRole('button', { name: 'Reintentar' })).toBeVisible();
  // A click's event is retried later: the log says when.
  expect((await request.get(link.shortLink, { maxRedirects: 0 })).status()).toBe(302);
  await expect(failing.getByRole('listitem').filter({ hasText: 'Próximo intento' })).toBeVisible({ timeout: 20_000 });

  // Deleted after a question.
  await failing.getByRole('button', { name: 'Eliminar' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('No se puede deshacer');
  await dialog.getByRole('button', { name: 'Eliminar' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Webhook eliminado' })).toBeVisible();
  await expect(failing).toHaveCount(0);
  await expect(page.getByText('Este espacio aún no tiene webhooks.')).toBeVisible();
});

test('at 375 px the page fits, and a webhook is created from the keyboard alone', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await signUpViaApi(page);
  const team = await createTeamViaApi(page, 'Teléfono');
  await page.goto(`/w/${team.slug}/webhooks`);
  await expect(page.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeVisible();
  const url = page.getByLabel('URL que recibirá los avisos');
  await url.focus();
  await page.keyboard.type(`http://127.0.0.1:${receiverPort}/movil`);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('region', { name: 'Secreto del webhook' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Secreto del webhook' })).toBeFocused();
  expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
});
