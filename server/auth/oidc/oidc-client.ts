import * as client from 'openid-client';
import type { Config, OidcConfig } from '../../config';

// The relying party's side of the provider, found by discovery from OIDC_ISSUER (openid-client).

export const CALLBACK_PATH = '/api/auth/oidc/callback';
// What Corto asks for: the subject, the e-mail and whether the provider proved it, the name. The
// `groups` claim (OIDC_ADMIN_GROUP) is read from the ID token or userinfo when the provider is set
// up to send it (docs/accounts.md): asking for a `groups` scope would make Google refuse.
const SCOPE = 'openid email profile';

export interface OidcClient {
  settings: OidcConfig;
  redirectUri: string;
  /** The provider's metadata, discovered once (a failure is tried again next time). */
  configuration(): Promise<client.Configuration>;
}

export class OidcDiscoveryError extends Error {}

export function createOidcClient(config: Config, settings: OidcConfig): OidcClient {
  let discovered: Promise<client.Configuration> | undefined;
  const insecure = settings.issuer.startsWith('http:');
  return {
    settings,
    redirectUri: `${config.publicBaseUrl}${CALLBACK_PATH}`,
    configuration() {
      discovered ??= (async () => {
        const configuration = await client.discovery(new URL(settings.issuer), settings.clientId, settings.clientSecret, undefined, {
          // Plain http only when the operator wrote an http:// issuer (a provider on the same host).
          execute: insecure ? [client.allowInsecureRequests] : [],
          timeout: settings.timeoutMs / 1000,
        });
        // The token and userinfo requests get the same deadline as the discovery.
        configuration.timeout = settings.timeoutMs / 1000;
        return configuration;
      })().catch((error: unknown) => {
        discovered = undefined;
        throw new OidcDiscoveryError(error instanceof Error ? error.message : String(error));
      });
      return discovered;
    },
  };
}

export { SCOPE as OIDC_SCOPE };

// One client (and one discovery) per configuration: the routes and the logout share it.
const clients = new WeakMap<Config, OidcClient>();

/** The provider's client for this configuration; undefined when OIDC_ISSUER is not set. */
export function oidcClientOf(config: Config): OidcClient | undefined {
  if (!config.oidc) return undefined;
  let found = clients.get(config);
  if (!found) {
    found = createOidcClient(config, config.oidc);
    clients.set(config, found);
  }
  return found;
}
