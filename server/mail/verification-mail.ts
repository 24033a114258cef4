import { VERIFY_LINK_HOURS } from '@common/account/account-messages';
import { linkMail } from './link-mail';
import type { MailMessage } from './mailer';

/** The e-mail that proves an address ('Verificar mi email' on /cuenta), in Spanish, as text and as HTML. */
export function verificationMail(to: string, name: string, link: string): MailMessage {
  return linkMail(to, name, link, {
    subject: 'Verifica tu email en Corto',
    intro: ['Para confirmar que esta dirección es tuya y verificar tu email en Corto,', `abre este enlace en las próximas ${VERIFY_LINK_HOURS} horas:`],
    button: 'Verificar mi email',
    outro: [
      'El enlace solo sirve una vez, y solo mientras esta sea la dirección de tu cuenta.',
      'Si no lo has pedido tú, ignora este mensaje: no cambiará nada.',
    ],
  });
}
