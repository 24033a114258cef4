import type { FastifyInstance } from 'fastify';
import type { CreatedToken } from '@common/tokens/token-schemas';
import { sameOrigin } from '../test/test-users';

/** Creates a personal API token through the real route, as the holder of `cookie`. */
export async function createTokenAs(
  app: FastifyInstance,
  cookie: string,
  body: { name?: string; scope?: 'read' | 'write'; expiresAt?: string | null } = {},
): Promise<CreatedToken> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/tokens',
    headers: { cookie, ...sameOrigin },
    payload: { name: 'Script', scope: 'write', ...body },
  });
  if (response.statusCode !== 201) throw new Error(`createToken: ${response.statusCode} ${response.body}`);
  return response.json() as CreatedToken;
}

export const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });
