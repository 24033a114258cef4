import { RESET_LINK_MINUTES } from '@common/account/account-messages';
import type { MailMessage } from './mailer';

export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The password-reset e-mail, in Spanish, as text and as HTML. */
export function resetMail(to: string, name: string, link: string): MailMessage {
  const text = [
    `Hola, ${name}:`,
    '',
    'Alguien (esperamos que tú) ha pedido restablecer la contraseña de tu cuenta de Corto.',
    `Para elegir una nueva, abre este enlace en los próximos ${RESET_LINK_MINUTES} minutos:`,
    '',
    link,
    '',
    'El enlace solo sirve una vez. Al cambiar la contraseña se cerrarán todas tus sesiones y se revocarán todos tus tokens de API.',
    'Si no lo has pedido tú, ignora este mensaje: tu contraseña no cambiará.',
    '',
    '— Corto',
  ].join('\n');
  const safeLink = escapeHtml(link);
  const html = `<!doctype html>
<html lang="es"><body style="font-family: system-ui, sans-serif; color: #1f2937; line-height: 1.5">
<p>Hola, ${escapeHtml(name)}:</p>
<p>Alguien (esperamos que tú) ha pedido restablecer la contraseña de tu cuenta de Corto.
Para elegir una nueva, abre este enlace en los próximos ${RESET_LINK_MINUTES} minutos:</p>
<p><a href="${safeLink}" style="display: inline-block; padding: 10px 16px; background: #0d9488; color: #ffffff; border-radius: 6px; text-decoration: none">Restablecer la contraseña</a></p>
<p style="font-size: 14px">O copia esta dirección en tu navegador:<br>${safeLink}</p>
<p style="font-size: 14px">El enlace solo sirve una vez. Al cambiar la contraseña se cerrarán todas tus sesiones y se revocarán todos tus tokens de API.
Si no lo has pedido tú, ignora este mensaje: tu contraseña no cambiará.</p>
<p>— Corto</p>
</body></html>`;
  return { to, subject: 'Restablece tu contraseña de Corto', text, html };
}
