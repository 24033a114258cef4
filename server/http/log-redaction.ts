import type { FastifyRequest } from 'fastify';

// A secret in a request's query string (a password-reset link's token, an invitation's code, a
// bearer token someone put in the address) would be written to the log with the request's URL.
// Every request line goes through requestSerializer, so its value never reaches a log line.

/** Query parameters whose value is a secret, by name (case-blind, anywhere in the name: `reset_token`, `api_key`). */
const SECRET_PARAM = /token|code|pass|secret|key|invite|auth|signature|sig$|session/i;
export const REDACTED = '[REDACTED]';

function decoded(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

/** Paths whose next segment is a secret: a workspace invitation's, in its API route and its page. */
const SECRET_SEGMENT = /^(\/api\/invites\/|\/invitacion\/)[^/?#]+/i;

/** The URL with the value of every secret-like query parameter (and a secret path segment) replaced; the rest as it came. */
export function redactUrl(rawUrl: string): string {
  const url = rawUrl.replace(SECRET_SEGMENT, `$1${REDACTED}`);
  const start = url.indexOf('?');
  if (start < 0) return url;
  const query = url.slice(start + 1).split('&').map((part) => {
    const equals = part.indexOf('=');
    const name = equals < 0 ? part : part.slice(0, equals);
    // A name alone (`?secret`) keeps nothing to hide; a value after a secret-like name goes.
    return equals >= 0 && SECRET_PARAM.test(decoded(name)) ? `${name}=${REDACTED}` : part;
  });
  return `${url.slice(0, start)}?${query.join('&')}`;
}

/** Fastify's own request serializer, with the URL redacted. */
export function requestSerializer(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
