import { z } from 'zod';
import '../zod-setup';

// Sign-in with the company's provider (OpenID Connect): the Spanish the /auth page and the account
// page show, and the codes the server's callback sends back in /auth?error=<code>.

export const oidcErrorCodes = [
  'denied',
  'expired',
  'mismatch',
  'provider',
  'unverified',
  'unconfirmed',
  'signup',
  'disabled',
  'no_email',
  'unavailable',
] as const;
export type OidcErrorCode = (typeof oidcErrorCodes)[number];

export const OIDC_ERROR_PARAM = 'error';

export const oidcErrorMessages: Record<OidcErrorCode, string> = {
  denied: 'El proveedor no dio acceso a Corto (se canceló o se denegó el permiso). Vuelve a intentarlo si fue un error.',
  expired: 'El inicio de sesión caducó o ya se había usado. Vuelve a intentarlo.',
  mismatch: 'La respuesta del proveedor no corresponde a este inicio de sesión. Vuelve a intentarlo desde aquí.',
  provider: 'El proveedor de identidad no respondió como se esperaba. Inténtalo de nuevo en unos minutos.',
  unverified:
    'Ya hay una cuenta con ese email, pero el proveedor no lo da por verificado: entra con tu contraseña o pide al proveedor que verifique el email.',
  unconfirmed:
    'Ya hay una cuenta con ese email, pero quien la creó aún no lo ha confirmado: entra con tu contraseña, confirma el email desde «Tu cuenta» y vuelve a entrar con el proveedor.',
  signup: 'Tu usuario del proveedor aún no tiene cuenta en Corto y aquí no se crean solas: pide a quien administra Corto que te dé de alta.',
  disabled: 'Tu cuenta está desactivada',
  no_email: 'El proveedor no envió el email de tu usuario: Corto lo necesita para tu cuenta.',
  unavailable: 'El inicio de sesión con el proveedor de la empresa no está configurado en este servidor.',
};

/** The Spanish sentence for /auth?error=<code>; undefined for a code we did not send. */
export function oidcErrorMessage(code: string | null): string | undefined {
  return oidcErrorCodes.find((known) => known === code) ? oidcErrorMessages[code as OidcErrorCode] : undefined;
}

export const oidcMessages = {
  button: (label: string) => `Entrar con ${label}`,
  passwordLoginOff: 'En este servidor no se entra con contraseña: usa el botón del proveedor de la empresa.',
  noPasswordToChange:
    'Tu cuenta no tiene contraseña (entras con el proveedor de la empresa). Para crear una, pide un enlace en «¿Olvidaste tu contraseña?».',
  unlinkNeedsPassword: 'Crea una contraseña antes de desvincular el proveedor: sin ella no podrías volver a entrar.',
  notLinked: 'Tu cuenta no está vinculada a ningún proveedor',
  deleteTypeEmail: 'Escribe tu email para confirmar',
  deleteEmailMismatch: 'El email no coincide con el de tu cuenta',
} as const;

/** GET /api/auth/config: what the /auth page offers. */
export const authConfigSchema = z.object({
  /** The provider's button, when OIDC_ISSUER is set. */
  oidc: z.object({ label: z.string() }).nullable(),
  /** PASSWORD_LOGIN: the password forms (sign-in, sign-up, reset) are shown. */
  passwordLogin: z.boolean(),
});
export type AuthConfig = z.infer<typeof authConfigSchema>;

/** GET /api/account/oidc: the provider linked to the account, and whether it has a password. */
export const accountOidcSchema = z.object({
  /** The provider's name (OIDC_LABEL) when the account is linked to it. */
  linked: z.object({ label: z.string(), since: z.string() }).nullable(),
  hasPassword: z.boolean(),
});
export type AccountOidc = z.infer<typeof accountOidcSchema>;
