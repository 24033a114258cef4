import { VERIFY_LINK_HOURS } from '@common/account/account-messages';
import type { MailMessage } from './mailer';
import { escapeHtml } from './reset-mail';

/** The e-mail that proves an address ('Verificar mi email' on /cuenta), in Spanish, as text and as HTML. */
export function verificationMail(to: string, name: string, link: string): MailMessage {
  const text = [
    `Hola, ${name}:`,
    '',
    'Para confirmar que esta dirección es tuya y verificar tu email en Corto,',
    `abre este enlace en las próximas ${VERIFY_LINK_HOURS} horas:`,
    '',
    link,
    '',
    'El enlace solo sirve una vez, y solo mientras esta sea la dirección de tu cuenta.',
    'Si no lo has pedido tú, ignora este mensaje: no cambiará nada.',
    '',
    '— Corto',
  ].join('\n');
  const safeLink = escapeHtml(link);
  const html = `<!doctype html>
<html lang="es"><body style="font-family: system-ui, sans-serif; color: #1f2937; line-height: 1.5">
<p>Hola, ${escapeHtml(name)}:</p>
<p>Para confirmar que esta dirección es tuya y verificar tu email en Corto,
abre este enlace en las próximas ${VERIFY_LINK_HOURS} horas:</p>
<p><a href="${safeLink}" style="display: inline-block; padding: 10px 16px; background: #0d9488; color: #ffffff; border-radius: 6px; text-decoration: none">Verificar mi email</a></p>
<p style="font-size: 14px">O copia esta dirección en tu navegador:<br>${safeLink}</p>
<p style="font-size: 14px">El enlace solo sirve una vez, y solo mientras esta sea la dirección de tu cuenta.
Si no lo has pedido tú, ignora este mensaje: no cambiará nada.</p>
<p>— Corto</p>
</body></html>`;
  return { to, subject: 'Verifica tu email en Corto', text, html };
}
