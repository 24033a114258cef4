// The operator's Spanish sentences, shared by the server's answers and the admin screens.

import { validationMessages } from '../messages';

export const adminMessages = {
  searchControl: validationMessages.searchControl,
  accountDisabled: 'Tu cuenta está desactivada',
  signupClosed: 'El registro está cerrado',
  signupClosedHelp: 'El registro de cuentas nuevas está cerrado en este servidor. Si necesitas una cuenta, pídesela a quien lo administra.',
  signupInviteHelp: 'Este servidor solo admite cuentas nuevas por invitación. Abre el enlace de invitación que te han enviado.',
  inviteRequired: 'Necesitas una invitación para registrarte',
  inviteInvalid: 'La invitación no es válida, ya se usó o ha caducado',
  inviteOtherEmail: (email: string) => `Esta invitación es para ${email}: regístrate con esa dirección`,
  domainBlocked: 'Este dominio no está permitido',
  domainInvalid: 'Escribe un dominio válido, p. ej. ejemplo.com',
  notYourself: 'No puedes desactivar ni eliminar tu propia cuenta',
  lastAdmin: 'Tiene que quedar al menos un administrador',
  userNotFound: 'Usuario no encontrado',
  linkNotFound: 'Link no encontrado',
  reasonTooLong: 'El motivo no puede tener más de 500 caracteres',
  reportAddressRequired: 'Indica el link que quieres denunciar',
  reportReasonRequired: 'Cuéntanos por qué denuncias este link',
  reportReasonTooLong: 'El motivo no puede tener más de 2000 caracteres',
  reportEmailInvalid: 'El email no es válido',
  reportNotFound: 'Denuncia no encontrada',
  reportStateInvalid: 'El estado debe ser open, resolved o dismissed',
  reportListInvalid: 'La lista debe ser open o handled',
  reportsRateLimited: 'Has enviado demasiadas denuncias. Espera un rato y vuelve a intentarlo.',
} as const;
