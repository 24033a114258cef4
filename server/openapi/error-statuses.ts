import { errorMessages } from '@common/messages';
import { tokenMessages } from '@common/tokens/token-messages';
import { isPublicRoute, tokenCheckedOn, tokenMayCall, tokenOnly } from '../tokens/api-access';

// Which error statuses an operation can answer, for the OpenAPI document: the rules every route
// shares (who may call it, whether it takes input), plus the few a route adds of its own. A route
// may list more in its config (`config: { errorStatuses: [409] }`); those below are the ones the
// routes of this room and the older ones answer.

const extraByRoute: Record<string, number[]> = {
  'POST /api/auth/register': [409, 429],
  'POST /api/auth/login': [401, 429],
  'POST /api/links': [409, 422, 429],
  'PATCH /api/links/:id': [409],
  'POST /api/tokens': [409],
  'POST /api/links/bulk': [409, 422, 429],
  'POST /api/links/import': [409, 429],
  'POST /api/auth/password-reset': [404, 429],
  'POST /api/auth/password-reset/confirm': [429],
  'POST /api/account/email/verification': [404, 409, 429],
  'POST /api/auth/email-verification/confirm': [409, 429],
  'POST /api/account/email/pending/resend': [404, 429],
  'DELETE /api/account/email/pending': [404],
  'POST /api/auth/totp': [401, 429],
  'DELETE /api/account/oidc': [404, 409],
  'POST /api/account/email': [409, 429],
  'POST /api/account/password': [429],
  'DELETE /api/account': [409, 429],
  'POST /api/account/totp': [409],
  'POST /api/account/totp/confirm': [409, 429],
  'DELETE /api/account/totp': [409, 429],
  'POST /api/reports': [429],
  'PATCH /api/admin/users/:id': [409],
  'DELETE /api/admin/users/:id': [409],
  'POST /api/workspaces': [409],
  'PATCH /api/workspaces/:slug': [409],
  'DELETE /api/workspaces/:slug': [409, 429],
  'PATCH /api/workspaces/:slug/members/:userId': [409],
  'DELETE /api/workspaces/:slug/members/:userId': [409],
  'POST /api/workspaces/:slug/invites': [409],
  'GET /api/invites/:token': [409],
  'POST /api/invites/:token/accept': [409],
  'DELETE /api/admin/workspaces/:id': [409],
  'POST /api/domains': [409],
  'POST /api/domains/:id/verify': [409],
  'DELETE /api/domains/:id': [409],
  'GET /api/domains/tls-allowed': [404],
};

export const statusDescriptions: Record<number, string> = {
  400: 'Datos no válidos: `error.fields` tiene los mensajes de cada campo.',
  401: `${errorMessages.unauthorized} Con un token: ${tokenMessages.invalidToken} (cabecera WWW-Authenticate: Bearer).`,
  403: 'Prohibido: escritura desde otro sitio (Origin), token de solo lectura (`insufficient_scope`), ruta vedada a los tokens, rol insuficiente en el espacio de trabajo o token de otro espacio.',
  404: `${errorMessages.notFound} También si el espacio de trabajo de \`?workspace=\` no existe o no eres miembro.`,
  409: 'Conflicto: el recurso ya existe, una petición con la misma Idempotency-Key sigue en curso, o el link que creó ya se eliminó.',
  413: errorMessages.payloadTooLarge,
  415: errorMessages.unsupportedMediaType,
  422: errorMessages.idempotencyKeyReused,
  429: 'Demasiadas peticiones: espera los segundos de Retry-After.',
  500: errorMessages.internal,
  503: errorMessages.databaseUnavailable,
};

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Routes that act in a workspace and take `?workspace=<slug>`: the links, tags and statistics a
 * token may call, the workspace's domains, and the tokens of a workspace ('Revocar todos', DELETE /api/tokens, is the
 * account's, in every workspace).
 */
export function takesWorkspace(method: string, url: string): boolean {
  if (tokenMayCall(url)) return true;
  if ((url === '/api/domains' || url.startsWith('/api/domains/')) && url !== '/api/domains/tls-allowed') return true;
  return (url === '/api/tokens' || url.startsWith('/api/tokens/')) && !(method === 'DELETE' && url === '/api/tokens');
}

export interface RouteFacts {
  method: string;
  url: string;
  hasBody: boolean;
  hasQuery: boolean;
  hasParams: boolean;
  extra?: number[];
}

export function errorStatusesOf({ method, url, hasBody, hasQuery, hasParams, extra = [] }: RouteFacts): number[] {
  const statuses = new Set<number>([500, 503, ...(extraByRoute[`${method} ${url}`] ?? []), ...extra]);
  const write = WRITES.has(method);
  if (hasBody || hasQuery || hasParams || write) statuses.add(400);
  if (write) statuses.add(403); // the Origin check on cookie writes
  // A body too large, or of a type the API does not read (text/plain...): a write takes a body
  // whether or not its route reads one, a multipart upload (the import, a picture) included.
  if (hasBody || write) statuses.add(413).add(415);
  // A bearer token on a public route: checked where tokens are (a wrong one is 401), else refused.
  statuses.add(tokenCheckedOn(url) ? 401 : 403);
  if (!isPublicRoute(url)) {
    statuses.add(401).add(403);
    if (tokenMayCall(url) || tokenOnly(url)) statuses.add(429);
  }
  if (hasParams) statuses.add(404);
  // A workspace the caller is not a member of is not found; a role too low for the action is 403.
  if (takesWorkspace(method, url)) statuses.add(403).add(404);
  return [...statuses].sort((a, b) => a - b);
}
