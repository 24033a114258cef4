import type { FastifyReply } from 'fastify';

// A page of its own rather than the web app's shell: the app would show its 404 screen.
const page = `<!doctype html>
<html lang="es">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Demasiadas peticiones · Corto</title></head>
<body>
<h1>Demasiadas peticiones</h1>
<p>Se han pedido muchas direcciones cortas que no existen desde tu conexión en poco tiempo. Espera un minuto y vuelve a intentarlo.</p>
<p><a href="/">Ir a la página de inicio</a></p>
</body>
</html>
`;

/** 429 for a client that has asked for too many unknown short codes this minute. */
export function sendTooManyMissesPage(reply: FastifyReply, retryAfterSeconds: number) {
  return reply
    .status(429)
    .header('cache-control', 'no-store')
    .header('retry-after', String(retryAfterSeconds))
    .type('text/html; charset=utf-8')
    .send(page);
}
