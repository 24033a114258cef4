import { RULES_PER_LINK, VARIANTS_MAX } from './rule-messages';

// The edit dialog's and the detail page's wording for rules, A/B tests and the redirect status
// (the API's messages and the value labels are in rule-messages.ts).

/** The condition kinds of the «Añadir condición» menu, in its order. */
export const conditionKindLabels = {
  device: 'Dispositivo',
  os: 'Sistema',
  browser: 'Navegador',
  country: 'País',
  language: 'Idioma',
  query: 'Parámetro',
  dates: 'Fechas',
} as const;

export const ruleEditorMessages = {
  rulesTitle: 'Reglas',
  rulesHelp: 'Envían a otra URL según quién visita el link. Se prueban en orden: manda la primera que se cumple; si ninguna se cumple, el destino principal (o la prueba A/B).',
  rulesCount: (count: number) => `${count} de ${RULES_PER_LINK} reglas`,
  rulesFull: `Has llegado al máximo de ${RULES_PER_LINK} reglas.`,
  addRule: 'Añadir regla',
  ruleTitle: (position: number) => `Regla ${position}`,
  ruleUrl: 'Enviar a esta URL',
  ruleAllConditions: 'Se cumple cuando se cumplen todas sus condiciones.',
  ruleNoConditions: 'Añade al menos una condición.',
  addCondition: 'Añadir condición',
  removeCondition: (kind: string) => `Quitar la condición «${kind}»`,
  moveUp: (position: number) => `Subir la regla ${position}`,
  moveDown: (position: number) => `Bajar la regla ${position}`,
  removeRule: (position: number) => `Quitar la regla ${position}`,
  moved: (from: number, to: number, count: number) => `Regla ${from} movida a la posición ${to} de ${count}.`,
  removed: (position: number) => `Regla ${position} quitada.`,
  search: (kind: string) => `Buscar ${kind.toLowerCase()}`,
  searchPlaceholder: 'Escribe para buscar',
  noMatches: 'Ningún resultado',
  addCode: (code: string, name: string) => `Añadir el código «${code}»${name && name !== code ? ` (${name})` : ''}`,
  removeValue: (name: string) => `Quitar ${name}`,
  chosenNone: 'Ninguno elegido todavía',
  queryName: 'Nombre del parámetro',
  queryValue: 'Valor (* = cualquiera)',
  addQuery: 'Añadir otro parámetro',
  removeQuery: (name: string) => `Quitar el parámetro ${name || 'vacío'}`,
  queryDuplicate: 'Ese parámetro ya está en la regla',
  datesFrom: 'Desde (opcional)',
  datesUntil: 'Hasta (opcional)',
  datesEmpty: 'Indica al menos una de las dos fechas, o quita la condición',

  abTitle: 'Prueba A/B',
  abHelp: 'Reparte a quien no cumple ninguna regla entre varias URL según los pesos. Cada persona conserva su variante 30 días.',
  abStart: 'Crear una prueba A/B',
  abAddVariant: 'Añadir variante',
  abFull: `Una prueba A/B tiene como máximo ${VARIANTS_MAX} variantes.`,
  abRemove: 'Quitar la prueba',
  abRemoveVariant: (letter: string) => `Quitar la variante ${letter}`,
  variantTitle: (letter: string) => `Variante ${letter}`,
  variantUrl: (letter: string) => `URL de la variante ${letter}`,
  variantWeight: (letter: string) => `Peso de la variante ${letter} (%)`,
  total: (sum: number) => `Total: ${sum} %`,

  redirectType: 'Tipo de redirección',

  probeTitle: 'Probar',
  probeHelp: 'Elige cómo sería una visita y mira adónde iría con las reglas y la prueba tal como están en este formulario.',
  probeDevice: 'Dispositivo',
  probeOs: 'Sistema',
  probeBrowser: 'Navegador',
  probeCountry: 'País',
  probeLanguage: 'Idioma',
  probeQuery: 'Parámetros de la visita (opcional)',
  probeUnknown: 'Otro o desconocido',
  probeResultLabel: 'Resultado',
  probeRule: (url: string, position: number) => `Iría a: ${url} (regla ${position})`,
  probeDefault: (url: string) => `Iría a: ${url} (destino principal)`,
  probeVariants: (options: string) => `Iría a una de las variantes de la prueba A/B (cada persona conserva la suya): ${options}`,
  probeVariant: (letter: string, url: string, weight: number) => `variante ${letter}, ${url} (${weight} %)`,
  probeNoUrl: '(sin URL todavía)',

  badgeRules: 'Reglas',
  badgeTest: 'Prueba A/B',
  rulesLine: (count: number) => (count === 1 ? 'Con 1 regla' : `Con ${count} reglas`),
  testRunning: 'Prueba A/B en marcha',
  chooseWinner: 'Elegir ganador',
  chooseWinnerLabel: (letter: string) => `Elegir la variante ${letter} como ganadora`,
  chooseWinnerTitle: (letter: string) => `¿Elegir la variante ${letter}?`,
  chooseWinnerDescription: (url: string) =>
    `${url} pasará a ser el destino del link para todas las visitas y la prueba A/B terminará. Las estadísticas de la prueba se conservan.`,
  chooseWinnerConfirm: 'Elegir y terminar la prueba',
  winnerChosen: (letter: string) => `Variante ${letter} elegida: ahora es el destino del link.`,
  winnerFailed: 'No se pudo elegir la variante.',
} as const;

/** A variant's letter: A for the first. */
export const variantLetter = (index: number) => String.fromCharCode(65 + index);

/** Where a visit went, in words: «Regla 2», «Variante B», «Destino principal». */
export const destinationLabels = {
  rule: (position: number) => `Regla ${position}`,
  removedRule: 'Regla ya quitada',
  variant: (letter: string) => `Variante ${letter}`,
  removedVariant: 'Variante de una prueba anterior',
  default: 'Destino principal',
} as const;

export const destinationStatsMessages = {
  title: 'Por destino',
  help: 'Clics de personas (sin bots) según la URL a la que fueron enviadas.',
  clicks: 'Clics',
  visitors: 'Visitantes',
  share: 'Parte',
  abTitle: 'Prueba A/B: ¿qué variante gana?',
  abNoVisitors: 'Aún no hay visitantes en la prueba para compararla.',
  abTie: 'Las variantes hacen volver a la misma parte de sus visitantes.',
  abVariantEmpty: (letter: string) => `Aún no se puede comparar: la variante ${letter} no ha tenido visitantes en este periodo.`,
  abLeader: (letter: string, points: string, low: string, high: string, confidence: string) =>
    `La variante ${letter} hace volver a más visitantes: ${points} puntos (entre ${low} y ${high}), confianza ${confidence} %`,
  abWeak: 'Con esta confianza, la diferencia aún puede deberse al azar: conviene esperar a más visitas.',
  abStrong: 'Es poco probable que la diferencia se deba al azar.',
  abRate: (letter: string, rate: string, returning: string, visitors: string) =>
    `Variante ${letter}: vuelven ${rate} % (${returning} de ${visitors})`,
  howTitle: '¿Cómo se calcula?',
  how: [
    'Un acortador no ve las compras ni los registros, así que compara lo que sí ve: la tasa de retorno, la parte de los visitantes únicos de cada variante que volvieron a abrir el link el mismo día.',
    'La diferencia entre las dos mejores variantes viene con su intervalo de confianza del 95 %, calculado con la aproximación normal de la diferencia de dos proporciones.',
    'La confianza es 1 − p, donde p es el valor p de una prueba z de dos proporciones (bilateral): cuanto más cerca del 100 %, menos probable es que la diferencia sea casualidad.',
  ],
} as const;
