// What the 'Tokens de API' screen and the API say about personal tokens.

export const TOKEN_NAME_MAX_LENGTH = 100;
/** Characters of the secret shown in lists: enough to recognise a token, never to use it. */
export const TOKEN_PREFIX_LENGTH = 12;
/** Tokens one account may hold. */
export const TOKENS_PER_USER = 50;

export const tokenScopes = ['read', 'write'] as const;

export const tokenMessages = {
  nameRequired: 'El nombre es obligatorio',
  nameTooLong: `El nombre puede tener como máximo ${TOKEN_NAME_MAX_LENGTH} caracteres`,
  scopeInvalid: 'El alcance debe ser «read» (solo lectura) o «write» (lectura y escritura)',
  expiresAtInvalid: 'La fecha de caducidad no es válida',
  expiresAtPast: 'La fecha de caducidad debe ser futura',
  tooMany: `Puedes tener como máximo ${TOKENS_PER_USER} tokens. Revoca alguno antes de crear otro.`,
  notFound: 'Token no encontrado.',
  invalidToken: 'El token de API no es válido, ha caducado o ha sido revocado.',
  creatorNotMember: 'Este token ya no funciona: quien lo creó ya no es miembro de su espacio de trabajo.',
  insufficientScope: 'Este token es de solo lectura: no puede modificar datos.',
  notForTokens: 'Los tokens de API no tienen acceso a esta ruta. Inicia sesión en la web para usarla.',
  /** The answers of 'Revocar todos los tokens'. */
  allRevoked: 'Se han revocado todos tus tokens de API: dejan de funcionar al momento.',
  noneToRevoke: 'No tenías ningún token de API.',
  tokenInQuery:
    'Los tokens de API van en la cabecera Authorization («Authorization: Bearer <token>»), nunca en la dirección: las direcciones quedan en historiales y registros. Si lo has enviado así, revócalo y crea otro.',
  apiRateLimited: 'Has superado el límite de peticiones de este token. Espera al tiempo indicado en Retry-After.',
} as const;
