// What the API and the web app say about webhooks and the live feed (docs/webhooks.md).

/** Failed deliveries in a row after which a webhook is disabled. */
export const WEBHOOK_DISABLE_AFTER_FAILURES = 20;
/** Waits before each retry of a failed delivery: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h. */
export const WEBHOOK_RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000] as const;
/**
 * Pauses of a webhook whose receiver fails, after its 1st, 2nd... failed round, the last repeated:
 * 5 s, 1 min, 5 min, 15 min, then hourly. A receiver back up gets what waited within the hour, and
 * one that stays down reaches WEBHOOK_DISABLE_AFTER_FAILURES after about half a day.
 */
export const WEBHOOK_PROBE_DELAYS_MS = [5_000, 60_000, 300_000, 900_000, 3_600_000] as const;
/** The longest receiver URL accepted. */
export const WEBHOOK_URL_MAX = 2000;
/** Deliveries kept and shown per webhook. */
export const WEBHOOK_DELIVERIES_SHOWN = 100;
/** Live feeds a user may have open at once (on one instance). */
export const LIVE_STREAMS_PER_USER = 10;
/** At most this many links in a webhook's filter. */
export const WEBHOOK_LINKS_MAX = 100;

/** Deliveries in flight at once per webhook. */
export const WEBHOOK_IN_FLIGHT_MAX = 4;
/** How long a receiver has to answer. */
export const WEBHOOK_TIMEOUT_MS = 10_000;

export const webhookEventLabels = {
  'link.clicked': 'Clic en un enlace',
  'link.created': 'Enlace creado',
  'link.updated': 'Enlace cambiado',
  'link.deleted': 'Enlace eliminado',
} as const;

export const webhookMessages = {
  urlRequired: 'Escribe la dirección que recibirá los avisos (por ejemplo, https://crm.empresa.es/corto)',
  urlInvalid: 'Escribe una URL completa que empiece por https:// o http://',
  urlScheme: 'La dirección debe empezar por https:// o http://',
  urlCredentials: 'Quita el usuario y la contraseña de la dirección: Corto firma cada aviso con el secreto del webhook',
  urlPort: 'Usa el puerto estándar (443 o 80) o uno a partir del 1024',
  urlTooLong: `La dirección puede tener como máximo ${WEBHOOK_URL_MAX} caracteres`,
  urlPrivate: 'Esa dirección es de una red privada o de esta misma máquina: Corto no envía avisos allí',
  eventsRequired: 'Elige al menos un evento',
  eventUnknown: 'Evento desconocido: elige entre clic, creado, cambiado y eliminado',
  linksTooMany: `Un webhook puede filtrar como máximo ${WEBHOOK_LINKS_MAX} enlaces`,
  linkNotInWorkspace: 'Alguno de esos enlaces no existe en este espacio de trabajo',
  notFound: 'Webhook no encontrado',
  deliveryNotFound: 'Envío no encontrado',
  created: 'Webhook creado. Copia el secreto ahora: no se volverá a mostrar.',
  saved: 'Webhook guardado',
  deleted: 'Webhook eliminado',
  enabled: 'Webhook activado',
  disabledByUser: 'Webhook desactivado',
  testSent: 'Prueba enviada',
  retryQueued: 'Envío programado de nuevo',
  disabledAfterFailures: `Desactivado tras ${WEBHOOK_DISABLE_AFTER_FAILURES} envíos fallidos seguidos`,
  sendTest: 'Enviar prueba',
  // Why a delivery failed (Delivery.error).
  deliveryTimeout: 'El receptor no respondió en 10 segundos',
  deliveryUnreachable: 'No se pudo conectar con el receptor',
  deliveryPrivate: 'El receptor está en una red privada o en esta misma máquina: no se envió',
  deliveryRedirect: 'El receptor respondió con una redirección, que no se sigue',
  deliveryStatus: (status: number) => `El receptor respondió ${status}`,
  live: 'En directo',
  // The live feed (its route and the detail page's panel).
  liveTooMany: `Tienes demasiadas ventanas con el directo abierto (como máximo ${LIVE_STREAMS_PER_USER}): cierra alguna y vuelve a intentarlo`,
  liveConnected: 'Conectado',
  liveReconnecting: 'Reconectando…',
  liveEnded: 'Desconectado: vuelve a cargar la página para seguir viendo los clics',
  liveWaiting: 'Esperando clics… Aparecerán aquí en cuanto alguien abra el enlace, sin recargar la página.',
  liveQr: 'QR',
  liveBot: 'Bot',
  liveDirect: 'Directo',
} as const;
