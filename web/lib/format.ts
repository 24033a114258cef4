// Numbers, counts and dates in Spanish, whatever language the browser is set to: the page is
// Spanish, so an en-US browser must not mix '11/23/2026, 11:48 AM' or '1,234' into it. Times
// stay in the visitor's own time zone.

const LOCALE = 'es';

const numberFormat = new Intl.NumberFormat(LOCALE);
const pluralRules = new Intl.PluralRules(LOCALE);
const dateTimeFormat = new Intl.DateTimeFormat(LOCALE, { dateStyle: 'medium', timeStyle: 'short' });
const utcDayFormat = new Intl.DateTimeFormat(LOCALE, { day: 'numeric', month: 'short', timeZone: 'UTC' });

/** A number as Spanish writes it: '1234', '12.345' (Spanish groups thousands from five digits). */
export function formatNumber(value: number): string {
  return numberFormat.format(value);
}

/** A noun's two forms. */
export interface Noun {
  one: string;
  other: string;
}

export const nouns = {
  click: { one: 'clic', other: 'clics' },
  visitor: { one: 'visitante', other: 'visitantes' },
  scan: { one: 'escaneo QR', other: 'escaneos QR' },
  link: { one: 'link', other: 'links' },
} as const satisfies Record<string, Noun>;

/** '1 clic', '0 clics', '12.345 clics': the noun agrees with the number (Spanish plural rules). */
export function formatCount(value: number, noun: Noun): string {
  // Spanish has 'one', 'many' (a million and up: '1 millón de') and 'other'; only 'one' is singular.
  return `${formatNumber(value)} ${pluralRules.select(value) === 'one' ? noun.one : noun.other}`;
}

/** A moment (ISO 8601) in Spanish, in the visitor's time zone: '23 nov 2026, 11:48'. */
export function formatDateTime(iso: string): string {
  return dateTimeFormat.format(new Date(iso));
}

/** A UTC day as the server counts them ('2026-11-22') in short Spanish: '22 nov'. */
export function formatUtcDay(isoDay: string): string {
  return utcDayFormat.format(new Date(`${isoDay}T00:00:00Z`));
}
