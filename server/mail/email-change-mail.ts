import { VERIFY_LINK_HOURS } from '@common/account/account-messages';
import { linkMail } from './link-mail';
import type { MailMessage } from './mailer';

/** To the new address of a change asked for on /cuenta: the link that makes it the account's. */
export function emailChangeMail(to: string, name: string, current: string, link: string): MailMessage {
  return linkMail(to, name, link, {
    subject: 'Confirma tu nuevo email en Corto',
    intro: [
      `Has pedido cambiar el email de tu cuenta de Corto de ${current} a esta dirección.`,
      `Para confirmar que es tuya y hacer el cambio, abre este enlace en las próximas ${VERIFY_LINK_HOURS} horas:`,
    ],
    button: 'Confirmar mi nuevo email',
    outro: [
      `Hasta entonces tu cuenta sigue usando ${current}. El enlace solo sirve una vez.`,
      'Si no lo has pedido tú, ignora este mensaje: no cambiará nada.',
    ],
  });
}

/** To the old address, at the same time: someone asked to move the account away from it. */
export function emailChangeNoticeMail(to: string, name: string, requested: string, accountPage: string): MailMessage {
  return linkMail(to, name, accountPage, {
    subject: 'Se ha pedido cambiar el email de tu cuenta de Corto',
    intro: [
      `Se ha pedido cambiar el email de tu cuenta de Corto a ${requested}.`,
      'El cambio solo se hará cuando alguien abra el enlace que hemos enviado a esa dirección. Hasta entonces tu cuenta sigue usando esta.',
    ],
    button: 'Revisar mi cuenta',
    outro: [
      'Si has sido tú, no tienes que hacer nada más.',
      'Si no has sido tú, entra en «Mi cuenta», cancela el cambio y cambia tu contraseña: alguien la conoce.',
    ],
  });
}
