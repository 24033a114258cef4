// What the API and the web app say about a workspace's own domains.

export const DOMAIN_CHALLENGE_PREFIX = '_corto-challenge';
/** Days a name added but never verified stays held; then another workspace may add it. */
export const UNVERIFIED_CLAIM_DAYS = 7;

export const domainMessages = {
  hostnameRequired: 'Escribe el nombre del dominio (por ejemplo, go.empresa.es)',
  hostnameOnlyName: 'Escribe solo el nombre del dominio, sin «https://», rutas ni usuario (por ejemplo, go.empresa.es)',
  hostnamePort: 'Escribe el dominio sin puerto: Corto lo sirve por HTTPS en el 443',
  hostnameWildcard: 'No se admiten comodines: añade cada dominio por su nombre',
  hostnameIp: 'Escribe un nombre de dominio, no una dirección IP',
  hostnameInvalid: 'Ese nombre de dominio no es válido: usa letras, números y guiones, en partes separadas por puntos',
  hostnameNeedsDot: 'Escribe el dominio completo, con su terminación (por ejemplo, go.empresa.es)',
  hostnameLabelTooLong: 'Cada parte del dominio puede tener como máximo 63 caracteres',
  hostnameTooLong: 'El dominio puede tener como máximo 253 caracteres',
  hostnameMixedScripts: 'Ese dominio mezcla alfabetos (por ejemplo, letras latinas y cirílicas) y podría confundirse con otro',
  hostnameInstance: 'Ese es el dominio de esta instancia: ya lo tienes sin añadirlo',
  hostnameUnderInstance: 'Ese dominio es parte del dominio de esta instancia: no se puede añadir',
  hostnameBlocked: 'Ese dominio está bloqueado en esta instancia',
  hostnameTaken: 'Ese dominio ya está añadido en un espacio de trabajo',
  hostnameClaimed: `Otro espacio de trabajo ha añadido ese dominio y aún no lo ha verificado. Si no lo verifica en ${UNVERIFIED_CLAIM_DAYS} días desde que lo añadió, podrás añadirlo tú.`,
  tooMany: (limit: number) => `Un espacio de trabajo puede tener como máximo ${limit} ${limit === 1 ? 'dominio' : 'dominios'}`,
  customDomainsOff: 'Los dominios propios están desactivados en esta instancia',
  notFound: 'Dominio no encontrado',
  redirectInvalid: 'Escribe una URL completa que empiece por http:// o https://',
  redirectLoop: 'Esa dirección vuelve a este mismo dominio: los visitantes darían vueltas sin llegar a ningún sitio',
  inUse: (links: number) =>
    `No se puede eliminar: ${links === 1 ? 'lo usa 1 enlace' : `lo usan ${links} enlaces`}. Muévelos a otro dominio o elimínalos antes.`,
  verified: 'Dominio verificado: ya puedes crear enlaces en él.',
  /** POST /api/domains/:id/verify, 409: what the lookup found. */
  recordMissing: (name: string) => `No encontramos ningún registro TXT en ${name}. Créalo y vuelve a intentarlo (los cambios de DNS pueden tardar unos minutos).`,
  recordWrong: (name: string, found: string[]) =>
    `El registro TXT de ${name} no tiene el valor esperado: encontramos ${found.map((value) => `«${value}»`).join(', ')}.`,
  lookupFailed: (name: string) => `No pudimos consultar el DNS de ${name}. Vuelve a intentarlo en unos minutos.`,
  notVerified: 'Ese dominio aún no está verificado: crea el registro TXT y pulsa «Verificar»',
  unknownForLink: 'Ese dominio no es de este espacio de trabajo',
  disabled: 'Este dominio está desactivado por el administrador de la instancia',
} as const;
