import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyReply } from 'fastify';

// Without the built web app (API tests, a server run on its own) a small page says it in Spanish.
const fallbackPage = `<!doctype html>
<html lang="es">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Enlace no encontrado · Corto</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 32rem; margin: 4rem auto; padding: 0 1rem">
<h1>Enlace no encontrado</h1>
<p>Este enlace corto no existe o fue eliminado.</p>
<p><a href="/">Ir a la página de inicio</a></p>
</body>
</html>
`;

/**
 * 404 for an unknown short code. With the web app built, its shell is sent with status 404 and
 * the client router shows the app's own Spanish 404 screen; read each time, as 404s are rare
 * and the file changes with every build.
 */
export async function sendNotFoundPage(reply: FastifyReply, webDir: string | undefined) {
  let page = fallbackPage;
  if (webDir) {
    page = await readFile(path.join(webDir, 'index.html'), 'utf8').catch(() => fallbackPage);
  }
  return reply
    .status(404)
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(page);
}
