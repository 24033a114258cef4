import { validationMessages } from '../messages';

// Spanish wording for links, shared by the create form and the API. The spec's three messages
// come from common/messages.ts; the rest are the rules we add (DESIGN.md rules 6 and 7).

export const LONG_URL_MAX_LENGTH = 2048;
export const TITLE_MAX_LENGTH = 200;
export const ALIAS_MIN_LENGTH = 3;
export const ALIAS_MAX_LENGTH = 50;
export const LIST_DEFAULT_LIMIT = 50;
export const LIST_MAX_LIMIT = 200;
export const MAX_CLICKS_LIMIT = 1_000_000_000;
export const LINK_PASSWORD_MIN_LENGTH = 4;
export const LINK_PASSWORD_MAX_LENGTH = 128;
export const TAGS_PER_LINK = 20;
export const BULK_MAX_LINKS = 100;

/** A link's state in words, as its badge and the links CSV's status column say it. */
export const linkStatusLabels = { active: 'Activo', paused: 'En pausa', expired: 'Caducado', disabled: 'Desactivado' } as const;

/** Links one bulk update or bulk delete may name. */
export const BULK_EDIT_MAX_LINKS = 500;
export const IMPORT_MAX_ROWS = 10_000;
export const IMPORT_MAX_BYTES = 10 * 1024 * 1024;
/** The most characters one row (a line) of an import file may hold: a title, a URL and tags fit many times over. */
export const IMPORT_MAX_ROW_CHARS = 16 * 1024;
/** The most characters one cell of an import file may hold (a URL is at most LONG_URL_MAX_LENGTH). */
export const IMPORT_MAX_CELL_CHARS = 4 * 1024;
export const TAG_MAX_LENGTH = 40;

export const linkMessages = {
  titleRequired: validationMessages.titleRequired,
  titleTooLong: `El título no puede superar los ${TITLE_MAX_LENGTH} caracteres`,
  titleControl: 'El título no puede contener caracteres de control (saltos de línea, tabuladores...)',
  titleBidi: 'El título no puede contener caracteres invisibles que cambian la dirección del texto',
  searchControl: validationMessages.searchControl,
  longUrlRequired: validationMessages.longUrlRequired,
  longUrlInvalid: validationMessages.longUrlInvalid,
  longUrlProtocol: 'La URL debe empezar por http:// o https://',
  longUrlPrivate: 'La URL no puede llevar a una dirección local o privada (localhost, 127.0.0.1, 192.168.x.x...)',
  longUrlThisInstance: 'La URL no puede ser otra dirección de este acortador',
  longUrlTooLong: `La URL no puede superar los ${LONG_URL_MAX_LENGTH} caracteres`,
  aliasLength: `La URL personalizada debe tener entre ${ALIAS_MIN_LENGTH} y ${ALIAS_MAX_LENGTH} caracteres`,
  aliasCharacters: 'La URL personalizada solo puede tener letras, números, guiones (-) y guiones bajos (_)',
  aliasMixedScripts:
    'La URL personalizada no puede mezclar alfabetos (por ejemplo, letras latinas con cirílicas o griegas que se les parecen)',
  aliasReserved: 'Esa URL personalizada está reservada por la aplicación',
  aliasTaken: 'Esa URL personalizada ya está en uso',
  aliasHeld: 'Esa URL personalizada era de un link eliminado hace poco y queda reservada un tiempo, para que nadie más reciba sus visitas',
  tooManyLinks: 'Has creado demasiados links en la última hora. Espera un poco y vuelve a probar.',
  /** The general message the create form shows beside the fields' own (spec: "Error creating short URL"). */
  createFailed: 'No se pudo crear el link corto',
  loadFailed: 'No se pudieron cargar los links',
  deleteFailed: 'No se pudo eliminar el link',
  notFound: 'No se encontró el link',
  limitInvalid: `El límite debe ser un número entero entre 1 y ${LIST_MAX_LIMIT}`,
  cursorInvalid: 'El cursor de paginación no es válido',
  editFailed: 'No se pudieron guardar los cambios',
  pausedInvalid: 'Indica si el link está en pausa',
  expiresAtInvalid: 'La fecha de caducidad no es válida',
  expiresAtPast: 'La fecha de caducidad debe ser futura',
  maxClicksInvalid: `El límite de clics debe ser un número entero entre 1 y ${MAX_CLICKS_LIMIT.toLocaleString('es-ES')}`,
  passwordLength: `La contraseña debe tener entre ${LINK_PASSWORD_MIN_LENGTH} y ${LINK_PASSWORD_MAX_LENGTH} caracteres`,
  statusInvalid: 'El estado debe ser activo, en pausa, caducado o desactivado',
  addressNotFound: 'Esa dirección no es una dirección anterior de este link',
  freeAddressFailed: 'No se pudo liberar la dirección',
  forwardQueryInvalid: 'Indica si el link reenvía los parámetros de la visita',
  /** `domain` of a creation or edit that is not text (its hostname is checked by the server). */
  domainInvalid: 'Escribe el dominio del link (por ejemplo, go.empresa.es) o déjalo vacío para usar el de esta instancia',
  tagsInvalid: 'Las etiquetas deben ser una lista de textos',
  tagsTooMany: `Un link puede tener como máximo ${TAGS_PER_LINK} etiquetas`,
  tagEmpty: 'Una etiqueta no puede estar vacía',
  tagTooLong: `Cada etiqueta puede tener como máximo ${TAG_MAX_LENGTH} caracteres`,
  tagCharacters: 'Una etiqueta no puede contener «|» ni caracteres de control',
  tagInvalid: 'La etiqueta del filtro no es válida',
  sortInvalid: 'El orden debe ser por fecha de creación, clics o título',
  orderInvalid: 'El sentido del orden debe ser ascendente o descendente',
  createdByInvalid: 'El filtro por creador debe ser el número de un usuario',
  /** createdBy's name when the creator's account no longer exists. */
  creatorGone: 'Cuenta eliminada',
  tagsLoadFailed: 'No se pudieron cargar las etiquetas',
  bulkInvalid: 'Envía una lista «links» con al menos un link',
  bulkTooMany: `Se pueden crear como máximo ${BULK_MAX_LINKS} links a la vez`,
  disabledByOperator:
    'Quien administra este servidor ha desactivado este link y no se puede editar. Puedes eliminarlo, o escribir a quien administra el servidor si crees que es un error.',
  bulkIdsInvalid: 'Envía una lista «ids» con los números de al menos un link',
  bulkIdsTooMany: `Se pueden cambiar o eliminar como máximo ${BULK_EDIT_MAX_LINKS.toLocaleString('es-ES')} links a la vez`,
  bulkChangesEmpty: 'Indica al menos un cambio: pausar o reanudar, añadir o quitar etiquetas',
  bulkPausedInvalid: 'Indica si los links quedan en pausa (true) o activos (false)',
  bulkTagsTooMany: `Con esas etiquetas, algún link tendría más de ${TAGS_PER_LINK}: no se cambió ningún link`,
  importFileMissing: 'Elige un archivo CSV para importar',
  importNotCsv: 'El archivo no es un CSV que se pueda leer',
  importUnknownColumns:
    'No se reconocen las columnas del archivo: usa title,longUrl,customUrl,tags o una exportación de Shlink, Kutt, YOURLS o Bitly',
  importTooManyRows: `Un archivo puede tener como máximo ${IMPORT_MAX_ROWS.toLocaleString('es-ES')} filas`,
  importTooLarge: `El archivo no puede superar los ${IMPORT_MAX_BYTES / 1024 / 1024} MB`,
  importBusy: 'Ya hay una importación en curso: espera a que termine',
  importRowMalformed: 'La fila no tiene el formato CSV correcto: revisa sus comillas (una se abre y no se cierra)',
  importRowTooLong: `La fila supera los ${IMPORT_MAX_ROW_CHARS.toLocaleString('es-ES')} caracteres que puede tener una fila`,
  importCellTooLong: `Una celda de la fila supera los ${IMPORT_MAX_CELL_CHARS.toLocaleString('es-ES')} caracteres que puede tener una celda`,
  importRowOverQuota: 'Se alcanzó el límite de links que tu cuenta puede crear en una hora: esta fila no se creó',
  importTooSlow: 'El archivo tarda demasiado en leerse: revisa que sea un CSV de enlaces',
  importFailed: 'No se pudo importar el archivo',
  importRulesJson: 'La columna «rules» no es un JSON válido: debe ser una lista de reglas, o quedar vacía',
  importVariantsJson: 'La columna «variants» no es un JSON válido: debe ser una lista de variantes, o quedar vacía',
} as const;

/** A server check on one rule's URL, said with the rule's place as the dialog numbers them (from 1). */
export const atRule = (index: number, message: string) => `Regla ${index + 1}: ${message}`;
/** A server check on one A/B variant's URL, with its place (from 1). */
export const atVariant = (index: number, message: string) => `Variante ${index + 1}: ${message}`;

/** An import row whose alias an earlier row of the same file already has. */
export const importAliasRepeated = (row: number) => `El alias ya lo usa la fila ${row} de este archivo`;
