import { RESET_LINK_MINUTES } from '@common/account/account-messages';
import { linkMail } from './link-mail';
import type { MailMessage } from './mailer';

/** The password-reset e-mail, in Spanish, as text and as HTML. */
export function resetMail(to: string, name: string, link: string): MailMessage {
  return linkMail(to, name, link, {
    subject: 'Restablece tu contraseña de Corto',
    intro: [
      'Alguien (esperamos que tú) ha pedido restablecer la contraseña de tu cuenta de Corto.',
      `Para elegir una nueva, abre este enlace en los próximos ${RESET_LINK_MINUTES} minutos:`,
    ],
    button: 'Restablecer la contraseña',
    outro: [
      'El enlace solo sirve una vez. Al cambiar la contraseña se cerrarán todas tus sesiones y se revocarán todos tus tokens de API.',
      'Si no lo has pedido tú, ignora este mensaje: tu contraseña no cambiará.',
    ],
  });
}
