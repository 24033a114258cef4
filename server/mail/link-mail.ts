import type { MailMessage } from './mailer';

export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** What a mail carrying a one-time link says: each a list of lines, plain text (escaped in the HTML). */
export interface LinkMailText {
  subject: string;
  /** Before the link: why it was sent and how long it works. */
  intro: string[];
  /** The HTML button's label. */
  button: string;
  /** After the link: what it does once, and what to do if it was not asked for. */
  outro: string[];
}

/**
 * A Spanish mail with one link (a password reset, an e-mail verification, an invitation), as text
 * and as HTML; `name` null greets without one (an invitation's addressee may have no account yet).
 */
export function linkMail(to: string, name: string | null, link: string, says: LinkMailText): MailMessage {
  const greeting = name === null ? 'Hola:' : `Hola, ${name}:`;
  const text = [greeting, '', ...says.intro, '', link, '', ...says.outro, '', '— Corto'].join('\n');
  const safeLink = escapeHtml(link);
  const lines = (parts: string[]) => parts.map(escapeHtml).join('\n');
  const html = `<!doctype html>
<html lang="es"><body style="font-family: system-ui, sans-serif; color: #1f2937; line-height: 1.5">
<p>${escapeHtml(greeting)}</p>
<p>${lines(says.intro)}</p>
<p><a href="${safeLink}" style="display: inline-block; padding: 10px 16px; background: #0d9488; color: #ffffff; border-radius: 6px; text-decoration: none">${escapeHtml(says.button)}</a></p>
<p style="font-size: 14px">O copia esta dirección en tu navegador:<br>${safeLink}</p>
<p style="font-size: 14px">${lines(says.outro)}</p>
<p>— Corto</p>
</body></html>`;
  return { to, subject: says.subject, text, html };
}
