// Every Spanish sentence a user can read that both the server and the web app need.
// The spec's wording is kept exactly where it gives one.

export const validationMessages = {
  loginEmailInvalid: 'Email incorrecto',
  loginEmailRequired: 'El Email es obligatorio',
  passwordMin: 'La contraseña debe tener al menos 6 caracteres',
  passwordRequired: 'La contraseña es obligatoria',
  nameRequired: 'El nombre es obligatorio',
  registerEmailInvalid: 'El email no es válido',
  registerEmailRequired: 'El email es obligatorio',
  profileImageRequired: 'La imagen de perfil es obligatoria',
  titleRequired: 'El título es obligatorio',
  longUrlInvalid: 'La URL debe ser válida',
  longUrlRequired: 'La URL es obligatoria',
  searchControl: 'La búsqueda no puede contener caracteres de control',
} as const;

export const errorMessages = {
  validation: 'Revisa los datos del formulario.',
  invalidJson: 'El cuerpo de la petición no es JSON válido.',
  unsupportedMediaType: 'El tipo de contenido de la petición no está admitido.',
  payloadTooLarge: 'La petición es demasiado grande.',
  requestTimeout: 'La petición tardó demasiado en llegar. Inténtalo de nuevo.',
  unauthorized: 'Tienes que iniciar sesión.',
  forbidden: 'No tienes permiso para hacer esto.',
  notFound: 'No encontrado.',
  rateLimited: 'Demasiados intentos. Espera un momento y vuelve a probar.',
  storageTooManyMisses: 'Se han pedido muchos archivos que no existen desde tu conexión en poco tiempo. Espera un minuto y vuelve a intentarlo.',
  busy: 'Hay demasiadas peticiones en este momento. Inténtalo de nuevo en unos segundos.',
  databaseUnavailable: 'El servicio no está disponible en este momento. Inténtalo de nuevo en unos segundos.',
  notReady: 'El servicio todavía no está listo. Inténtalo de nuevo en unos segundos.',
  storageUnavailable: 'No se pueden guardar archivos en este momento. Inténtalo de nuevo en unos minutos.',
  internal: 'Ha ocurrido un error inesperado. Inténtalo de nuevo.',
  badRequest: 'La petición no es válida.',
  idempotencyKeyInvalid: 'La cabecera Idempotency-Key debe tener de 1 a 255 caracteres ASCII visibles, sin espacios.',
  idempotencyKeyReused: 'Esta Idempotency-Key ya se usó con otros datos. Usa una clave nueva para una petición distinta.',
  idempotencyInProgress: 'Una petición con esta Idempotency-Key sigue en curso. Espera un momento y vuelve a intentarlo.',
  idempotencyLinkDeleted: 'El link creado con esta Idempotency-Key ya se eliminó. Para crearlo otra vez, usa una clave nueva.',
} as const;

// What the web app says when no answer came back at all: the server was unreachable, or silent.
export const networkMessages = {
  unreachable: 'No se pudo conectar con el servidor. Revisa tu conexión e inténtalo de nuevo.',
  timeout: 'El servidor no respondió a tiempo. Inténtalo de nuevo en unos segundos.',
} as const;
