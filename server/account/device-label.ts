import { UAParser } from 'ua-parser-js';

// What the sessions list calls a browser: 'Chrome en Windows', 'Safari en iPhone', 'Firefox en
// Android'. ua-parser-js 1.0.x (MIT), the one the click enrichment uses.

const UNKNOWN = 'Navegador desconocido';

export function deviceLabel(userAgent: string | null): string {
  if (!userAgent) return UNKNOWN;
  const { browser, os, device } = new UAParser(userAgent).getResult();
  // A phone or tablet is named by its model family where the agent says it (iPhone, iPad).
  const place = device.model === 'iPhone' || device.model === 'iPad' ? device.model : os.name;
  if (browser.name && place) return `${browser.name} en ${place}`;
  return browser.name ?? place ?? UNKNOWN;
}
