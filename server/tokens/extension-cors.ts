import type { onRequestHookHandler } from 'fastify';
import { bearerSecretOf } from './bearer-auth';

// CORS for browser extensions calling the API with a personal token (Corto's own, extension/).
// An extension's page fetches from chrome-extension://<id>; without a host permission for the
// instance (which only a prompt nobody can answer in a test, or a broad install-time permission,
// would give) the browser needs the API's leave. It is given only:
// - to extensions' origins: a web page elsewhere still cannot read an API answer;
// - for the bearer token, never the cookie: no Access-Control-Allow-Credentials, so the browser
//   sends and exposes no session, and the bearer hook ignores cookies anyway.

const EXTENSION_ORIGIN = /^(chrome-extension|moz-extension|safari-web-extension):\/\/[a-z0-9-]{1,64}$/i;
const ALLOWED_METHODS = 'GET, POST, PATCH, DELETE';
const ALLOWED_HEADERS = 'authorization, content-type, idempotency-key';
/** What a script may read of an answer beyond the basics: the token's limits. */
const EXPOSED_HEADERS = 'ratelimit-limit, ratelimit-remaining, ratelimit-reset, retry-after';
const PREFLIGHT_MAX_AGE_S = '600';

export const isExtensionOrigin = (origin: string | undefined): origin is string => origin !== undefined && EXTENSION_ORIGIN.test(origin);

const underApi = (url: string) => url.startsWith('/api/');

/** App-wide onRequest: answers an extension's preflight to /api, and lets it read its bearer answers. */
export const allowExtensionsWithTokens: onRequestHookHandler = (request, reply, done) => {
  const origin = request.headers.origin;
  if (!isExtensionOrigin(origin) || !underApi(request.url)) return done();
  void reply.header('vary', 'Origin');
  if (request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined) {
    const asked = String(request.headers['access-control-request-headers'] ?? '').toLowerCase();
    // A preflight for a request without the token (a cookie one) is not answered: the browser refuses it.
    if (!/(^|,)\s*authorization\s*(,|$)/.test(asked)) return done();
    void reply
      .code(204)
      .headers({
        'access-control-allow-origin': origin,
        'access-control-allow-methods': ALLOWED_METHODS,
        'access-control-allow-headers': ALLOWED_HEADERS,
        'access-control-max-age': PREFLIGHT_MAX_AGE_S,
      })
      .send();
    return;
  }
  if (bearerSecretOf(request) !== undefined) {
    void reply.headers({ 'access-control-allow-origin': origin, 'access-control-expose-headers': EXPOSED_HEADERS });
  }
  done();
};
