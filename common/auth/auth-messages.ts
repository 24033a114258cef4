import { validationMessages } from '../messages';

// Spanish wording for accounts, shared by the /auth forms and the API. The spec's messages come
// from common/messages.ts; the rest are the limits we add.

export const NAME_MAX_LENGTH = 100;
export const EMAIL_MAX_LENGTH = 254;
// argon2 hashes any length, but a megabyte password is only an attack.
export const PASSWORD_MAX_LENGTH = 256;
export const PROFILE_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const PROFILE_IMAGE_MAX_SIDE = 6000;
export const PROFILE_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;

export const authMessages = {
  ...validationMessages,
  nameTooLong: `El nombre no puede superar los ${NAME_MAX_LENGTH} caracteres`,
  nameControl: 'El nombre no puede contener caracteres de control (saltos de línea, tabuladores...)',
  nameBidi: 'El nombre no puede contener caracteres invisibles que cambian la dirección del texto',
  emailTooLong: `El email no puede superar los ${EMAIL_MAX_LENGTH} caracteres`,
  passwordTooLong: `La contraseña no puede superar los ${PASSWORD_MAX_LENGTH} caracteres`,
  passwordCommon: 'Esta contraseña es demasiado común',
  profileImageType: 'La imagen de perfil debe ser PNG, JPEG, WebP o GIF',
  profileImageTooLarge: 'La imagen de perfil no puede superar los 5 MB',
  profileImageDimensions: `La imagen de perfil no puede medir más de ${PROFILE_IMAGE_MAX_SIDE} píxeles de lado`,
  profileImageUnreadable: 'No se pudo leer la imagen de perfil',
  emailTaken: 'Ya existe una cuenta con este email',
  wrongCredentials: 'Email o contraseña incorrectos',
  registerFailed: 'No se pudo crear la cuenta',
  loginFailed: 'No se pudo iniciar sesión',
  logoutFailed: 'No se pudo cerrar sesión',
  crossOrigin: 'Petición rechazada: viene de otro sitio.',
  /** A script (curl) that sends the session cookie but neither Origin nor Sec-Fetch-Site: what to send. */
  cookieWithoutOrigin:
    'Petición rechazada: lleva la cookie de sesión sin la cabecera Origin. Un script que usa la cookie debe enviar la dirección pública de este servidor, p. ej. «Origin: https://corto.example»; o usar un token de API («Authorization: Bearer …»), que no la necesita.',
} as const;
