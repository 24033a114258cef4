import { oidcMessages } from '@common/auth/oidc-messages';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config';
import { AppError } from '../../http/app-error';

/**
 * PASSWORD_LOGIN=false: sign-in, sign-up and the mailed reset by password are refused (403, in
 * Spanish) before anything is read; the provider's button is the way in. An operator's
 * `corto reset-link` keeps working (its confirm route is not guarded), for the day it is turned back on.
 */
export function refuseWithoutPasswordLogin(config: Config) {
  return async (_request: FastifyRequest) => {
    if (!config.passwordLogin) throw new AppError('forbidden', oidcMessages.passwordLoginOff);
  };
}
