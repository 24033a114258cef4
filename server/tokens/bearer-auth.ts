import { tokenMessages } from '@common/tokens/token-messages';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { AppError } from '../http/app-error';
import type { SharedLimiter } from '../rate-limits/shared-limiter';
import { tokenCheckedOn, underTokenForbiddenPrefix } from './api-access';
import type { TokenCache } from './token-cache';
import { hashTokenSecret, looksLikeTokenSecret } from './token-secret';

declare module 'fastify' {
  interface FastifyRequest {
    /** The API token of a bearer request once authenticated; null for cookie requests. */
    apiToken: { id: number; scope: 'read' | 'write'; workspaceId: number } | null;
  }
}

/** What a route may put in its config about tokens. */
export interface TokenRouteConfig {
  /** The route lets a read token write requests through and refuses what it may not do itself. */
  tokenScopeCheckedByRoute?: boolean;
}

export const WWW_AUTHENTICATE = 'www-authenticate';
const BEARER_CHALLENGE = 'Bearer realm="corto"';
const INVALID_TOKEN_CHALLENGE = 'Bearer realm="corto", error="invalid_token"';
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The bearer secret a request carries, '' for a malformed Bearer header, undefined for none. */
export function bearerSecretOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string' || !/^bearer(\s|$)/i.test(header)) return undefined;
  return header.slice(6).trim();
}

/** Query parameters a client might put a token in. */
const TOKEN_QUERY_PARAMS = new Set(['access_token', 'token', 'api_key', 'apikey', 'bearer']);

/** Whether the query string carries a token: refused, never looked up (it is not logged either: log-redaction.ts). */
export function tokenInQuery(request: FastifyRequest): boolean {
  const query = request.query;
  if (typeof query !== 'object' || query === null) return false;
  return Object.keys(query).some((name) => TOKEN_QUERY_PARAMS.has(name.toLowerCase()));
}

/** A 401 that tells the caller to authenticate with a bearer token (or a session). */
export function bearerChallenge(reply: FastifyReply, invalid = false): void {
  void reply.header(WWW_AUTHENTICATE, invalid ? INVALID_TOKEN_CHALLENGE : BEARER_CHALLENGE);
}

/**
 * App-wide onRequest: a bearer request under /api/tokens, /api/account or /api/admin is refused
 * with 403 whatever the path below (even one no route answers), before any other work.
 */
export const refuseTokensOnPrivatePrefixes: onRequestHookHandler = (request, _reply, done) => {
  if (bearerSecretOf(request) === undefined || !underTokenForbiddenPrefix(request.url)) return done();
  done(new AppError('forbidden', tokenMessages.notForTokens));
};

/**
 * onRequest of the API's scope: a request with `Authorization: Bearer <secret>` is authenticated
 * by its token alone (cookies ignored), on the routes a token may call; its answer carries the
 * token's RateLimit-* headers, whatever it is.
 */
export function registerBearerAuth(app: FastifyInstance, { cache, limiter }: { cache: TokenCache; limiter: SharedLimiter }): void {
  app.decorateRequest('apiToken', null);
  app.addHook('onRequest', async (request, reply) => {
    // A token in the address lands in histories and proxies' logs: it belongs in the header.
    if (tokenInQuery(request)) throw new AppError('validation', tokenMessages.tokenInQuery);
    const secret = bearerSecretOf(request);
    if (secret === undefined) return;
    const route = request.routeOptions.url ?? '';
    if (!tokenCheckedOn(route)) {
      throw new AppError('forbidden', tokenMessages.notForTokens);
    }
    const hash = looksLikeTokenSecret(secret) ? hashTokenSecret(secret) : undefined;
    const owner = hash ? await cache.lookup(hash) : undefined;
    if (!owner) {
      bearerChallenge(reply, true);
      throw new AppError('unauthorized', tokenMessages.invalidToken);
    }
    // Its creator left (or was removed from) its workspace: the token goes with them.
    if (!owner.member) {
      bearerChallenge(reply, true);
      throw new AppError('unauthorized', tokenMessages.creatorNotMember);
    }
    // Keyed by the secret's hash, not the row id: unique even across databases sharing one Redis.
    const limit = await limiter.consume(`token:${hash!.slice(0, 32)}`);
    // API_RATE_LIMIT=0: no limit, so nothing to announce.
    if (limiter.limit > 0) {
      void reply.headers({
        'ratelimit-limit': String(limit.limit),
        'ratelimit-remaining': String(limit.remaining),
        'ratelimit-reset': String(limit.resetSeconds),
      });
    }
    if (!limit.allowed) throw new AppError('rate_limited', tokenMessages.apiRateLimited, undefined, limit.resetSeconds);
    // A route whose every call is a POST (MCP) says so in its config, and checks the scope per tool.
    const scopeCheckedByRoute = (request.routeOptions.config as TokenRouteConfig | undefined)?.tokenScopeCheckedByRoute === true;
    if (owner.scope === 'read' && !READ_METHODS.has(request.method) && !scopeCheckedByRoute) {
      throw new AppError('insufficient_scope', tokenMessages.insufficientScope);
    }
    request.apiToken = { id: owner.tokenId, scope: owner.scope, workspaceId: owner.workspaceId };
    request.user = owner.user;
  });
}
