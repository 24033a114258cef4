// Spanish wording for where a visit goes: rules, A/B variants and the redirect status, shared by
// the edit dialog and the API.

export const RULES_PER_LINK = 20;
export const VARIANTS_MIN = 2;
export const VARIANTS_MAX = 5;
/** Values one list condition (countries, languages...) may name. */
export const CONDITION_VALUES_MAX = 50;
/** Query parameters one rule may test. */
export const QUERY_CONDITIONS_MAX = 10;
export const QUERY_NAME_MAX_LENGTH = 100;
export const QUERY_VALUE_MAX_LENGTH = 200;
/** Days a visitor keeps their variant of an A/B test (its cookie). */
export const VARIANT_COOKIE_DAYS = 30;

export const ruleMessages = {
  tooManyRules: `Un link puede tener como máximo ${RULES_PER_LINK} reglas`,
  ruleNeedsCondition: 'Cada regla necesita al menos una condición',
  ruleUrlRequired: 'Cada regla necesita la URL a la que envía',
  deviceInvalid: 'El dispositivo debe ser «mobile» (móvil), «tablet» o «desktop» (ordenador)',
  osInvalid: 'El sistema debe ser «ios», «android», «windows», «macos» o «linux»',
  browserInvalid: 'El navegador debe ser «chrome», «safari», «firefox», «edge», «opera» o «samsung»',
  countryInvalid: (code: string) => `«${code}» no es un código de país ISO de dos letras (por ejemplo, ES o MX)`,
  languageInvalid: (code: string) => `«${code}» no es un código de idioma (por ejemplo, es, en o pt)`,
  listEmpty: 'Elige al menos un valor, o quita la condición',
  listTooLong: `Una condición puede tener como máximo ${CONDITION_VALUES_MAX} valores`,
  queryTooMany: `Una regla puede probar como máximo ${QUERY_CONDITIONS_MAX} parámetros`,
  queryNameInvalid: `El nombre del parámetro debe tener entre 1 y ${QUERY_NAME_MAX_LENGTH} caracteres, sin espacios`,
  queryValueInvalid: `El valor del parámetro puede tener como máximo ${QUERY_VALUE_MAX_LENGTH} caracteres («*»: cualquier valor)`,
  dateInvalid: 'La fecha debe estar en formato ISO 8601 (por ejemplo, 2026-12-01T09:00:00Z)',
  datesReversed: 'La fecha de fin debe ser posterior a la de inicio',
  variantsCount: `Una prueba A/B tiene entre ${VARIANTS_MIN} y ${VARIANTS_MAX} variantes`,
  weightInvalid: 'Cada peso es un número entero entre 1 y 99',
  weightsSum: 'Los pesos de las variantes deben sumar 100',
  redirectTypeInvalid: 'El tipo de redirección debe ser 301, 302, 307 o 308',
  /** A rule's or a variant's URL that is a short address of this instance: a loop. */
  loop: 'Esa URL es una dirección corta de esta instancia: la visita daría vueltas',
  winnerInvalid: 'Esa variante no existe en la prueba A/B de este link',
  noTest: 'Este link no tiene una prueba A/B en marcha',
  /** What the dialog says beside 301 and 308. */
  cachedRedirect: 'Los navegadores guardan las redirecciones 301 y 308: las visitas siguientes de la misma persona no pasan por Corto y no se cuentan.',
} as const;

export const deviceLabels = { mobile: 'Móvil', tablet: 'Tableta', desktop: 'Ordenador' } as const;
export const osLabels = { ios: 'iOS', android: 'Android', windows: 'Windows', macos: 'macOS', linux: 'Linux' } as const;
export const browserLabels = { chrome: 'Chrome', safari: 'Safari', firefox: 'Firefox', edge: 'Edge', opera: 'Opera', samsung: 'Samsung Internet' } as const;
export const redirectTypeLabels = {
  302: '302: temporal (recomendada)',
  301: '301: permanente',
  307: '307: temporal, conserva el método',
  308: '308: permanente, conserva el método',
} as const;
