import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import Provider from 'oidc-provider';

// A real OpenID provider (oidc-provider) on a loopback port, for the tests of sign-in with the
// company's provider: users with e-mails, email_verified flags and groups; a login step that signs
// in the user the test names (no form); and ways to misbehave on the token endpoint (slow, garbage,
// an ID token of its own making, signed with the provider's real key).

export interface ProviderAccount {
  email?: string;
  email_verified?: boolean;
  name?: string;
  groups?: string[];
  /** Disabled at the provider: the login step refuses it (access_denied). */
  disabled?: boolean;
}

/** What a token request gets instead of the provider's answer. */
export type TokenMisbehaviour =
  | { kind: 'slow'; ms: number }
  | { kind: 'garbage' }
  | { kind: 'id-token'; claims: (defaults: Record<string, unknown>) => Record<string, unknown> };

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  accounts: Map<string, ProviderAccount>;
  /** The subject the next login step signs in. */
  loginAs: string;
  /** Applied to every token request while set. */
  misbehave: TokenMisbehaviour | undefined;
  /** Token requests seen (codes redeemed or not). */
  tokenRequests: number;
  /** The env a Corto instance needs to use this provider. */
  env(extra?: Record<string, string>): Record<string, string>;
  close(): Promise<void>;
}

export interface TestProviderOptions {
  /** The Corto addresses the provider may send users back to. */
  redirectUris: string[];
  postLogoutRedirectUris?: string[];
  port?: number;
}

const CLIENT_ID = 'corto';
const CLIENT_SECRET = 'secreto-del-cliente-de-pruebas';

export async function startTestProvider(options: TestProviderOptions): Promise<TestProvider> {
  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end();
  const server: Server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingKey: JWK = { ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const accounts = new Map<string, ProviderAccount>();
  let lastNonce: string | undefined;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: options.redirectUris,
        post_logout_redirect_uris: options.postLogoutRedirectUris ?? [],
        response_types: ['code'],
        grant_types: ['authorization_code'],
      },
    ],
    jwks: { keys: [signingKey] },
    cookies: { keys: ['claves-de-cookies-del-proveedor-de-pruebas'] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'groups'] },
    features: { devInteractions: { enabled: false }, rpInitiatedLogout: { enabled: true } },
    pkce: { required: () => true },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx: unknown, sub: string) {
      const account = accounts.get(sub);
      if (!account || account.disabled) return undefined;
      return { accountId: sub, claims: async () => ({ sub, ...account, disabled: undefined }) };
    },
  });

  // The login and consent steps at once, for whoever the test named.
  async function interaction(req: IncomingMessage, res: ServerResponse) {
    const details = await provider.interactionDetails(req, res);
    const sub = state.loginAs;
    const account = accounts.get(sub);
    if (!account || account.disabled) {
      await provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'Usuario desactivado' }, { mergeWithLastSubmission: false });
      return;
    }
    const grant = new provider.Grant({ accountId: sub, clientId: CLIENT_ID });
    grant.addOIDCScope(String(details.params.scope ?? 'openid'));
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { login: { accountId: sub }, consent: { grantId } }, { mergeWithLastSubmission: false });
  }

  async function forgedIdToken(claims: Record<string, unknown>): Promise<string> {
    return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'test-key' }).sign(privateKey);
  }

  const callback = provider.callback();
  const state: TestProvider = {
    issuer,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    accounts,
    loginAs: '',
    misbehave: undefined,
    tokenRequests: 0,
    env: (extra = {}) => ({ OIDC_ISSUER: issuer, OIDC_CLIENT_ID: CLIENT_ID, OIDC_CLIENT_SECRET: CLIENT_SECRET, OIDC_LABEL: 'Empresa', ...extra }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  handler = (req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    if (url.pathname.startsWith('/interaction/')) {
      interaction(req, res).catch((error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      });
      return;
    }
    if (url.pathname === '/auth') lastNonce = url.searchParams.get('nonce') ?? undefined;
    if (url.pathname === '/token' && req.method === 'POST') {
      state.tokenRequests += 1;
      const misbehave = state.misbehave;
      if (misbehave?.kind === 'slow') {
        setTimeout(() => callback(req, res), misbehave.ms);
        return;
      }
      if (misbehave?.kind === 'garbage') {
        res.setHeader('content-type', 'application/json');
        res.end('<html>esto no es JSON');
        return;
      }
      if (misbehave?.kind === 'id-token') {
        const now = Math.floor(Date.now() / 1000);
        const defaults = { iss: issuer, aud: CLIENT_ID, sub: state.loginAs, nonce: lastNonce, iat: now, exp: now + 300 };
        forgedIdToken(misbehave.claims(defaults)).then((idToken) => {
          res.setHeader('content-type', 'application/json');
          res.end(JSON.stringify({ access_token: 'inventado', token_type: 'Bearer', expires_in: 300, id_token: idToken }));
        }, (error: unknown) => {
          res.statusCode = 500;
          res.end(String(error));
        });
        return;
      }
    }
    callback(req, res);
  };
  return state;
}
