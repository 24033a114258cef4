// Spanish wording of the account page, password recovery and two-factor sign-in, shared by the
// server's answers and the web app's forms.

export const TOTP_CODE_DIGITS = 6;
export const RECOVERY_CODE_COUNT = 10;
export const RESET_LINK_MINUTES = 30;
export const VERIFY_LINK_HOURS = 24;

export const accountMessages = {
  currentPasswordRequired: 'Escribe tu contraseña actual',
  passwordConfirmRequired: 'Escribe tu contraseña para confirmar',
  wrongPassword: 'La contraseña no es correcta',
  sessionNotFound: 'Esa sesión no existe o ya se cerró',
  codeRequired: 'Escribe el código',
  codeInvalid: 'El código no es correcto',
  codeSpent: 'Ese código ya se ha usado: espera a que tu aplicación muestre el siguiente y escríbelo',
  recoveryCodeUsed: 'Ese código de recuperación ya se ha usado: cada uno sirve una sola vez. Escribe otro de tu lista',
  codeFormat: `El código tiene ${TOTP_CODE_DIGITS} cifras (o es uno de tus códigos de recuperación)`,
  totpAlreadyOn: 'La verificación en dos pasos ya está activada',
  totpNotStarted: 'Empieza de nuevo la activación de la verificación en dos pasos',
  totpNotOn: 'La verificación en dos pasos no está activada',
  totpChallengeExpired: 'El inicio de sesión ha caducado: vuelve a escribir tu email y contraseña',
  resetTokenRequired: 'Falta el enlace para restablecer la contraseña',
  resetTokenInvalid: 'Este enlace para restablecer la contraseña no es válido, ya se usó o ha caducado. Pide otro.',
  resetUnavailable: 'La recuperación por email no está disponible en este servidor: pide un enlace a quien lo administra.',
  verifyUnavailable: 'Este servidor no envía emails, así que no puede verificar tu dirección. Si necesitas ser administrador, pídeselo a quien lo administra.',
  verifyAlready: 'Tu email ya está verificado',
  verifyWait: 'Ya te enviamos un enlace hace menos de un minuto. Revisa tu correo (y la carpeta de spam) o espera un poco para pedir otro.',
  verifySendFailed: 'No se pudo enviar el email ahora. Inténtalo de nuevo en unos minutos.',
  verifyTokenRequired: 'Falta el enlace para verificar el email',
  verifyTokenInvalid: 'Este enlace para verificar el email no es válido, ya se usó, ha caducado o es de una dirección que ya no es la de tu cuenta. Pide otro desde «Mi cuenta».',
  emailChangeNone: 'No hay ningún cambio de email pendiente',
  emailChangeWait: 'Ya te enviamos un enlace a esa dirección hace menos de un minuto. Revisa tu correo (y la carpeta de spam) o espera un poco para pedir otro.',
  emailChangeRace: 'Otra cuenta acaba de tomar esa dirección, así que tu email no ha cambiado.',
  lastAdminLeaving: 'Eres el único administrador: nombra a otro en Administración antes de eliminar tu cuenta',
} as const;

/** Confirming a change of address when another account took the new one meanwhile. */
export const emailChangeTaken = (email: string, current: string) =>
  `Otra cuenta ya usa ${email}, así que no se ha cambiado: tu email sigue siendo ${current}.`;
