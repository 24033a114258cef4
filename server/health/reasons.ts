// What a readiness check tells an operator when a dependency does not answer: a reason in words
// (connection refused, no such bucket, ...), never an error's class name nor its message, which
// may carry a host, a user or a connection string.

const byCode: Record<string, string> = {
  ECONNREFUSED: 'conexión rechazada',
  ECONNRESET: 'conexión cortada',
  EPIPE: 'conexión cortada',
  ETIMEDOUT: 'sin respuesta',
  EHOSTUNREACH: 'servidor inalcanzable',
  ENETUNREACH: 'servidor inalcanzable',
  ENOTFOUND: 'nombre de servidor desconocido',
  EAI_AGAIN: 'nombre de servidor sin resolver',
  EACCES: 'sin permiso de escritura',
  EPERM: 'sin permiso de escritura',
  EROFS: 'sistema de archivos de solo lectura',
  ENOSPC: 'disco lleno',
  // PostgreSQL's SQLSTATEs.
  '28P01': 'credenciales rechazadas',
  '28000': 'credenciales rechazadas',
  '3D000': 'la base de datos no existe',
  '53300': 'demasiadas conexiones',
  '57P01': 'el servidor se está deteniendo',
  '57P03': 'el servidor está arrancando',
  // The S3 API's error names.
  NoSuchBucket: 'el bucket no existe',
  NotFound: 'el bucket no existe',
  AccessDenied: 'credenciales rechazadas',
  Forbidden: 'credenciales rechazadas',
  InvalidAccessKeyId: 'credenciales rechazadas',
  SignatureDoesNotMatch: 'credenciales rechazadas',
  TimeoutError: 'sin respuesta',
};

/** The errors' chain, outermost first (StorageUnavailableError wraps the SDK's, which may wrap a socket's). */
function* chain(error: unknown): Generator<Record<string, unknown>> {
  for (let at = error, depth = 0; at && typeof at === 'object' && depth < 5; depth += 1) {
    const current = at as Record<string, unknown>;
    yield current;
    // AggregateError (a name resolving to several addresses, each refused): the first tells.
    at = current.cause ?? (Array.isArray(current.errors) ? current.errors[0] : undefined);
  }
}

/** A short Spanish reason for a failed check. */
export function reasonOf(error: unknown): string {
  for (const link of chain(error)) {
    for (const key of [link.code, link.Code, link.name]) {
      if (typeof key === 'string' && byCode[key]) return byCode[key];
    }
    const message = typeof link.message === 'string' ? link.message : '';
    // Redis (ioredis), SQLite and a closed pool say it in words only.
    if (/NOAUTH|WRONGPASS/.test(message)) return 'credenciales rechazadas';
    if (/Connection is closed|Stream isn't writeable|connection is not open|Connection terminated|driver has already been destroyed|pool (has )?(ended|closed)/i.test(message)) return 'sin conexión';
  }
  return 'no responde como se espera';
}
