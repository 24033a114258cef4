import { authConfigSchema, OIDC_ERROR_PARAM, type OidcErrorCode } from '@common/auth/oidc-messages';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as client from 'openid-client';
import { z } from 'zod';
import type { AppContext } from '../../app-context';
import { ConfigError } from '../../config';
import { startSession } from '../sessions';
import { accountForProviderUser, type ProviderUser } from './oidc-accounts';
import { OIDC_SCOPE, oidcClientOf } from './oidc-client';
import { FLOW_COOKIE, FLOW_COOKIE_PATH, FLOW_LIFETIME_MS, saveFlow, sameOriginPath, takeFlow } from './oidc-flows';

// Sign-in with the company's provider (docs/accounts.md): authorization code with PKCE, state and
// nonce. Every failure ends on /auth?error=<code> with a Spanish sentence there (common/auth/
// oidc-messages.ts): never a raw error, never a 5xx, never a session.

const redirectSchema = { response: { 302: z.null() } };

export async function oidcRoutes(app: FastifyInstance, context: AppContext) {
  const { config, database } = context;
  const { db } = database;
  const oidc = oidcClientOf(config);
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const secure = config.publicBaseUrl.startsWith('https:');

  if (oidc) {
    // A provider that cannot be found stops the start, naming the variable: better than a button
    // that fails for everyone later (docs/accounts.md).
    app.addHook('onReady', async () => {
      try {
        await oidc.configuration();
      } catch (error) {
        throw new ConfigError(
          `Configuración no válida:\n  OIDC_ISSUER: no se pudo leer ${new URL('.well-known/openid-configuration', oidc.settings.issuer.replace(/\/?$/, '/'))} (${(error as Error).message})`,
        );
      }
    });
  }

  const failed = (reply: FastifyReply, code: OidcErrorCode, returnTo?: string) => {
    reply.clearCookie(FLOW_COOKIE, { path: FLOW_COOKIE_PATH });
    const params = new URLSearchParams({ [OIDC_ERROR_PARAM]: code });
    if (returnTo && returnTo !== '/dashboard') params.set('next', returnTo);
    return reply.redirect(`/auth?${params}`, 302);
  };

  routes.get('/api/auth/config', { schema: { response: { 200: authConfigSchema } } }, async () => ({
    oidc: oidc ? { label: oidc.settings.label } : null,
    passwordLogin: config.passwordLogin,
  }));

  routes.get(
    '/api/auth/oidc/start',
    { schema: { querystring: z.object({ next: z.string().optional() }).loose(), ...redirectSchema } },
    async (request, reply) => {
      if (!oidc) return failed(reply, 'unavailable');
      const returnTo = sameOriginPath(request.query.next);
      let configuration: client.Configuration;
      try {
        configuration = await oidc.configuration();
      } catch (error) {
        request.log.warn({ err: error }, 'the identity provider could not be reached');
        return failed(reply, 'provider', returnTo);
      }
      const codeVerifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const nonce = client.randomNonce();
      const cookie = await saveFlow(db, { state, nonce, code_verifier: codeVerifier, return_to: returnTo });
      // Lax: the provider sends the browser back with a top-level GET, which carries it.
      reply.setCookie(FLOW_COOKIE, cookie, { path: FLOW_COOKIE_PATH, httpOnly: true, sameSite: 'lax', secure, maxAge: FLOW_LIFETIME_MS / 1000 });
      const url = client.buildAuthorizationUrl(configuration, {
        redirect_uri: oidc.redirectUri,
        scope: OIDC_SCOPE,
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      });
      return reply.redirect(url.toString(), 302);
    },
  );

  routes.get('/api/auth/oidc/callback', { schema: { querystring: z.object({}).loose(), ...redirectSchema } }, async (request, reply) => {
    if (!oidc) return failed(reply, 'unavailable');
    const cookie = request.cookies[FLOW_COOKIE];
    // Taken whatever follows: a flow serves one answer of the provider, good or bad.
    const flow = cookie ? await takeFlow(db, cookie) : undefined;
    if (!flow) return failed(reply, 'expired');
    const query = new URLSearchParams(request.raw.url?.split('?')[1] ?? '');
    const keys = [...query.keys()];
    // A parameter given twice is not the provider's answer.
    if (new Set(keys).size !== keys.length || query.get('state') !== flow.state) return failed(reply, 'mismatch', flow.return_to);
    if (query.has('error')) return failed(reply, query.get('error') === 'access_denied' ? 'denied' : 'provider', flow.return_to);
    if (!query.get('code')) return failed(reply, 'mismatch', flow.return_to);

    let user: ProviderUser;
    let idToken: string;
    try {
      const configuration = await oidc.configuration();
      const tokens = await client.authorizationCodeGrant(configuration, callbackUrl(oidc.redirectUri, query), {
        pkceCodeVerifier: flow.code_verifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims || !tokens.id_token) return failed(reply, 'provider', flow.return_to);
      // Userinfo has what a provider keeps out of the ID token (oidc-provider, Keycloak's defaults).
      const info = configuration.serverMetadata().userinfo_endpoint
        ? await client.fetchUserInfo(configuration, tokens.access_token, claims.sub)
        : {};
      user = { ...claims, ...info, sub: claims.sub };
      idToken = tokens.id_token;
    } catch (error) {
      // A replayed or expired code is refused by the provider with invalid_grant.
      const code = error instanceof client.ResponseBodyError && error.error === 'invalid_grant' ? 'expired' : 'provider';
      request.log.warn({ err: errorSummary(error) }, 'sign-in with the identity provider failed');
      return failed(reply, code, flow.return_to);
    }
    const outcome = await accountForProviderUser(db, config, oidc.settings, user);
    if ('refused' in outcome) return failed(reply, outcome.refused, flow.return_to);
    const tokenHash = await startSession(db, config, request as FastifyRequest, reply, outcome.user.id);
    await db.insertInto('oidc_sessions').values({ token_hash: tokenHash, id_token: idToken }).execute();
    reply.clearCookie(FLOW_COOKIE, { path: FLOW_COOKIE_PATH });
    return reply.redirect(flow.return_to, 302);
  });
}

/** The callback's address as the provider called it, on PUBLIC_BASE_URL (what was registered). */
function callbackUrl(redirectUri: string, query: URLSearchParams): URL {
  const url = new URL(redirectUri);
  url.search = query.toString();
  return url;
}

// The error's kind and message, never a token or the request that carried one.
function errorSummary(error: unknown) {
  if (!(error instanceof Error)) return { message: String(error) };
  return { type: error.name, message: error.message, code: (error as { code?: unknown }).code };
}
