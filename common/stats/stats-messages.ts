// The statistics card's Spanish wording; the spec's own sentences are kept exactly.

export const statsMessages = {
  title: 'Estadísticas',
  loading: 'Cargando estadísticas...',
  empty: 'No hay estadísticas disponibles para este link.',
  totalClicks: 'Total de clics',
  uniqueVisitors: 'Visitantes únicos',
  scans: 'Escaneos QR',
  scansHint: 'Visitas que llegaron desde el código QR del link; también cuentan como clics.',
  uniqueVisitorsHint: 'Contados una vez al día por visitante, sin guardar su IP.',
  botsLeftOut: 'Bots y vistas previas excluidos',
  byLocation: 'Clics por ciudad',
  byDevice: 'Clics por dispositivo',
  byDay: 'Clics por día',
  byCountry: 'Países',
  byBrowser: 'Navegadores',
  byOs: 'Sistemas operativos',
  byReferrer: 'Sitios de origen',
  direct: 'Directo',
  unknown: 'Desconocido',
  range: 'Periodo',
  exportCsv: 'Exportar CSV',
  loadError: 'No se pudieron cargar las estadísticas.',
  /** DB-IP's credit, in the page's language (CC BY 4.0 asks for attribution, not for its English wording). */
  geoAttribution: 'Geolocalización IP por DB-IP',
  invalidRange: 'El periodo debe ser 7d, 30d, 90d o all.',
} as const;

export const DB_IP_URL = 'https://db-ip.com';

/** The spec's constants for the card. */
export const STATS_TOP_CITIES = 5;
export const STATS_CHART_HEIGHT = 300;
export const STATS_CHART_WIDTH = 700;
/** Longer breakdowns (browsers, systems, referrers) keep their largest entries. */
export const STATS_TOP_OTHERS = 10;

export const deviceLabels: Record<string, string> = {
  mobile: 'Móvil',
  tablet: 'Tableta',
  desktop: 'Escritorio',
};
