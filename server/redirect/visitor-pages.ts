import type { FastifyReply } from 'fastify';
import { staticSecurityHeaders } from '../http/security-headers';
import { VISITOR_STYLE_PATH } from './visitor-style';

// What a visitor of a short address sees when it does not simply redirect: small Spanish pages
// of their own (no script, no inline style, so the fixed policy holds), never stored by a cache,
// and usable without JavaScript.

export const visitorMessages = {
  pausedTitle: 'Este link no está disponible',
  pausedText: 'Quien lo creó lo ha puesto en pausa. Puede que vuelva a funcionar más adelante.',
  disabledTitle: 'Este link ha sido desactivado',
  disabledText: 'Quien administra este servidor lo ha desactivado y ya no lleva a ningún sitio.',
  expiredTitle: 'Este link ha caducado',
  expiredText: 'Ya no lleva a ningún sitio: ha pasado su fecha de caducidad o ha alcanzado su número máximo de visitas.',
  passwordTitle: 'Este link está protegido',
  passwordText: 'Escribe la contraseña que te han dado para continuar.',
  passwordLabel: 'Contraseña',
  passwordSubmit: 'Continuar',
  passwordWrong: 'Contraseña incorrecta',
  tooManyTriesTitle: 'Demasiados intentos',
  tooManyTriesText: 'Se ha escrito una contraseña incorrecta demasiadas veces desde tu conexión. Espera unos minutos y vuelve a intentarlo.',
  foreignFormTitle: 'Formulario no válido',
  foreignFormText: 'La contraseña solo se puede enviar desde la página de este link.',
  home: 'Ir a la página de inicio',
  report: 'Denunciar este link',
  // A workspace's own domain (issue 31).
  notFoundTitle: 'Enlace no encontrado',
  notFoundText: 'Este enlace corto no existe o fue eliminado.',
  domainRootTitle: 'Enlaces cortos',
  domainRootText: 'Este dominio acorta enlaces con Corto. Para abrir uno, usa la dirección completa que te han dado.',
  // A name this server does not serve: says nothing about what it is.
  unknownHostTitle: 'Página no encontrada',
  unknownHostText: 'Aquí no hay nada.',
} as const;

const m = visitorMessages;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="es">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<link rel="stylesheet" href="${VISITOR_STYLE_PATH}">
<title>${title} · Corto</title></head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

// Every page a visitor meets also leads to the abuse report form, with the address it was shown
// at already filled in (encoded, so it can never close the attribute). The form is the app's: on
// a custom domain (which serves no app) it is the instance's, `reportOrigin`; '' is this host.
const reportHref = (address?: string, reportOrigin = '') =>
  address ? `${reportOrigin}/denunciar?link=${encodeURIComponent(address)}` : `${reportOrigin}/denunciar`;
const linksFor = (address?: string, reportOrigin?: string) =>
  `<p><a href="/">${m.home}</a> · <a href="${reportHref(address, reportOrigin)}">${m.report}</a></p>`;
const simplePage = (title: string, text: string, address?: string, reportOrigin?: string) =>
  page(title, `<h1>${title}</h1>\n<p>${text}</p>\n${linksFor(address, reportOrigin)}`);

const foreignFormPage = simplePage(m.foreignFormTitle, m.foreignFormText);

/** The password form; posts to the address it was shown at, so the password never goes in a URL. */
function passwordPage(wrong: boolean, address?: string, reportOrigin?: string): string {
  const error = wrong ? `\n<p id="password-error" role="alert">${m.passwordWrong}</p>` : '';
  const described = wrong ? ' aria-describedby="password-error" aria-invalid="true"' : '';
  return page(
    m.passwordTitle,
    `<h1>${m.passwordTitle}</h1>
<p>${m.passwordText}</p>
<form method="post">
<label for="password">${m.passwordLabel}</label>
<input id="password" name="password" type="password" required autocomplete="off" autofocus${described}>${error}
<button type="submit">${m.passwordSubmit}</button>
</form>
${linksFor(address, reportOrigin)}`,
  );
}

// The unlocked form is answered with a redirect to the destination, anywhere on the web, and
// browsers hold a form's redirects to form-action: this page alone allows any http(s) target.
const passwordPagePolicy = staticSecurityHeaders['content-security-policy']!.replace(
  "form-action 'self'",
  "form-action 'self' http: https:",
);

function send(reply: FastifyReply, status: number, html: string, headers: Record<string, string> = {}) {
  return reply
    .status(status)
    .headers({ ...staticSecurityHeaders, 'cache-control': 'no-store', ...headers })
    .type('text/html; charset=utf-8')
    .send(html);
}

// `address`, the full short address, goes into the report link; `reportOrigin` says where the
// report form is ('' on the instance's own host, its origin on a custom domain).

/** 404: the owner paused the link. */
export const sendPausedPage = (reply: FastifyReply, address?: string, reportOrigin?: string) =>
  send(reply, 404, simplePage(m.pausedTitle, m.pausedText, address, reportOrigin));

/** 410: disabled by an operator (the link, its owner, the custom domain it is on, or its destination's domain). */
export const sendDisabledPage = (reply: FastifyReply, address?: string, reportOrigin?: string) =>
  send(reply, 410, simplePage(m.disabledTitle, m.disabledText, address, reportOrigin));

/** 410: past its date or its click limit. */
export const sendExpiredPage = (reply: FastifyReply, address?: string, reportOrigin?: string) =>
  send(reply, 410, simplePage(m.expiredTitle, m.expiredText, address, reportOrigin));

/** 200 with the form, or 401 with it again after a wrong password. */
export function sendPasswordPage(reply: FastifyReply, wrong = false, address?: string, reportOrigin?: string) {
  return send(reply, wrong ? 401 : 200, passwordPage(wrong, address, reportOrigin), { 'content-security-policy': passwordPagePolicy });
}

/** 429: too many wrong passwords from this client for this link. */
export function sendTooManyTriesPage(reply: FastifyReply, retryAfterSeconds: number, address?: string, reportOrigin?: string) {
  return send(reply, 429, simplePage(m.tooManyTriesTitle, m.tooManyTriesText, address, reportOrigin), {
    'retry-after': String(retryAfterSeconds),
  });
}

const domainNotFoundPage = page(m.notFoundTitle, `<h1>${m.notFoundTitle}</h1>\n<p>${m.notFoundText}</p>\n<p><a href="/">${m.home}</a></p>`);
const domainRootPage = page(m.domainRootTitle, `<h1>${m.domainRootTitle}</h1>\n<p>${m.domainRootText}</p>`);
// No stylesheet (this host serves nothing, that file included), no name, no link.
const unknownHostPage = `<!doctype html>
<html lang="es">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${m.unknownHostTitle}</title></head>
<body>
<h1>${m.unknownHostTitle}</h1>
<p>${m.unknownHostText}</p>
</body>
</html>
`;

/** 404 on a custom domain: an unknown code, or a path that is the app's on the instance. */
export const sendDomainNotFoundPage = (reply: FastifyReply) => send(reply, 404, domainNotFoundPage);

/** 200: the root of a custom domain without a rootRedirect. */
export const sendDomainRootPage = (reply: FastifyReply) => send(reply, 200, domainRootPage);

/** 404 for anything on a host that is neither the instance nor a verified domain. */
export const sendUnknownHostPage = (reply: FastifyReply) => send(reply, 404, unknownHostPage);

/** 403: a password posted from another site's page. */
export const sendForeignFormPage = (reply: FastifyReply) => send(reply, 403, foreignFormPage);
