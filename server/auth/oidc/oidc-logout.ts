import * as client from 'openid-client';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context';
import { requestTokenHash } from '../sessions';
import { oidcClientOf } from './oidc-client';

/**
 * Where the browser goes to end the provider's session too (RP-initiated logout), for a session the
 * provider opened and a provider that offers end_session_endpoint; undefined otherwise (and when the
 * provider cannot be reached: the Corto session ends all the same).
 */
export async function providerLogoutUrl({ config, database }: AppContext, request: FastifyRequest): Promise<string | undefined> {
  const oidc = oidcClientOf(config);
  const tokenHash = requestTokenHash(request);
  if (!oidc || !tokenHash) return undefined;
  const row = await database.db.selectFrom('oidc_sessions').select('id_token').where('token_hash', '=', tokenHash).executeTakeFirst();
  if (!row) return undefined;
  try {
    const configuration = await oidc.configuration();
    if (!configuration.serverMetadata().end_session_endpoint) return undefined;
    return client
      .buildEndSessionUrl(configuration, { id_token_hint: row.id_token, post_logout_redirect_uri: `${config.publicBaseUrl}/`, client_id: oidc.settings.clientId })
      .toString();
  } catch (error) {
    request.log.warn({ err: error }, 'the identity provider could not be reached for the logout');
    return undefined;
  }
}
