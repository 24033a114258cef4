// What the extension's popup and options page say. The link's own checks and their messages come
// from common/links, as in the web app; the API's refusals are shown as the API words them.

export const extensionMessages = {
  addressRequired: 'Escribe la dirección de tu Corto',
  addressInvalid: 'La dirección debe empezar por https:// o http://, por ejemplo https://corto.example.com',
  tokenRequired: 'Pega un token de API de escritura',
  invalidToken: 'El token no es válido o se ha revocado',
  readOnlyToken: 'Ese token solo puede leer: crea uno de escritura',
  unreachable: (address: string) => `No se puede conectar con ${address}`,
  notCorto: (address: string) => `En ${address} no responde un Corto. Revisa la dirección.`,
  checking: 'Comprobando la dirección y el token…',
  saved: 'Guardado. Ya puedes acortar páginas con el botón de Corto de la barra.',
  notConfigured: 'Antes de acortar, indica la dirección de tu Corto y un token en las opciones.',
  notShortenable: 'Esta página no se puede acortar',
  notShortenableDetail: 'Solo se pueden acortar páginas web (direcciones http o https).',
  shortening: 'Acortando…',
  copied: 'Copiado',
  copiedToClipboard: 'Enlace corto copiado al portapapeles',
  copyFailed: 'No se ha podido copiar: selecciona el enlace y cópialo a mano',
  qrAlt: (shortLink: string) => `Código QR de ${shortLink}`,
  qrUnavailable: 'El código QR no está disponible ahora mismo',
  unexpected: 'Algo ha fallado en Corto. Inténtalo de nuevo en un momento.',
} as const;
