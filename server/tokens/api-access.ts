// Which /api routes a personal token may call, in one place: the bearer hook, the prefix gate and
// the OpenAPI document (its security requirements) all read it.

/** Whole path prefixes a token never reaches, whether or not a route exists there yet. */
export const TOKEN_FORBIDDEN_PREFIXES = ['/api/tokens', '/api/account', '/api/admin'] as const;

/** Routes a token may call: the caller's links (stats, QR, CSV included) and tags. */
const TOKEN_ROUTE_PREFIXES = ['/api/links', '/api/tags'];

/**
 * Routes only a token may call (a session cookie alone is refused): the MCP endpoint, whose
 * callers are assistants holding a token, and which checks each tool against the token's scope.
 */
const TOKEN_ONLY_ROUTES = new Set(['/api/mcp']);

/** A route path only a bearer token may call. */
export function tokenOnly(routeUrl: string): boolean {
  return TOKEN_ONLY_ROUTES.has(routeUrl);
}

/** Routes anyone may call, signed in or not (a token on them is checked all the same). */
const PUBLIC_ROUTES = new Set([
  '/api/health',
  '/api/health/ready',
  '/api/signup',
  '/api/openapi.json',
  '/api/auth/register',
  '/api/auth/login',
  '/api/auth/logout',
  '/api/auth/session',
  '/api/auth/password-reset',
  '/api/auth/password-reset/confirm',
  '/api/auth/email-verification/confirm',
  '/api/auth/totp',
  // Sign-in with the company's provider: how the /auth page offers it, and the round trip.
  '/api/auth/config',
  '/api/auth/oidc/start',
  '/api/auth/oidc/callback',
  '/api/reports',
  // A workspace invitation's preview: the page its link opens, before its addressee signs in.
  '/api/invites/:token',
  // Caddy's on_demand_tls question: which names may have a certificate.
  '/api/domains/tls-allowed',
]);

const startsWithSegment = (path: string, prefix: string) =>
  path === prefix || path.startsWith(`${prefix}/`) || path.startsWith(`${prefix}.`);

/** A route path (as registered, e.g. '/api/links/:id') a token may call. */
export function tokenMayCall(routeUrl: string): boolean {
  return TOKEN_ROUTE_PREFIXES.some((prefix) => startsWithSegment(routeUrl, prefix));
}

/**
 * Routes where a bearer token is checked (a wrong one is 401): those a token may call, and the
 * document, its reference page and the liveness check. On any other route a token is refused (403).
 */
export function tokenCheckedOn(routeUrl: string): boolean {
  return tokenMayCall(routeUrl) || tokenOnly(routeUrl) || routeUrl.startsWith('/api/docs') || routeUrl === '/api/openapi.json' || routeUrl === '/api/health';
}

export function isPublicRoute(routeUrl: string): boolean {
  return PUBLIC_ROUTES.has(routeUrl) || routeUrl === '/api/docs' || routeUrl.startsWith('/api/docs/');
}

/** A request path under one of the prefixes no token may reach (compared decoded and case-blind). */
export function underTokenForbiddenPrefix(rawUrl: string): boolean {
  let path = rawUrl.split('?')[0] ?? '';
  try {
    path = decodeURIComponent(path);
  } catch {
    // Undecodable: the router refuses it anyway; judged as it is.
  }
  path = path.replace(/\/{2,}/g, '/').toLowerCase();
  return TOKEN_FORBIDDEN_PREFIXES.some((prefix) => path === prefix || path.startsWith(prefix));
}
