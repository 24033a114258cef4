import { UNKNOWN_LOCATION } from '@common/constants';
import { deviceLabels, statsMessages } from '@common/stats/stats-messages';

// Stored values (ISO codes, device types, 'Unknown') shown in Spanish.

const regionNames = new Intl.DisplayNames(['es'], { type: 'region' });

export function countryName(code: string): string {
  if (code === UNKNOWN_LOCATION) return statsMessages.unknown;
  try {
    return regionNames.of(code) ?? code;
  } catch {
    return code; // not a region code Intl knows
  }
}

export const cityName = (city: string) => (city === UNKNOWN_LOCATION ? 'Desconocida' : city);
export const deviceName = (device: string) => deviceLabels[device] ?? device;
export const plainName = (name: string) => (name === UNKNOWN_LOCATION ? statsMessages.unknown : name);
export const referrerName = (domain: string) => (domain === '' ? statsMessages.direct : domain);
