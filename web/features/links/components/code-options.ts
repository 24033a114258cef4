import { isCountryCode, isLanguageCode } from '@common/rules/rule-schemas';
import { countryName, languageName } from './code-names';

// The «País» and «Idioma» choices, named in Spanish by the browser's own Intl data: no list of
// countries is shipped, and a country Intl knows is one the API takes (the same isCountryCode).

export interface CodeOption {
  code: string;
  name: string;
}

const collator = new Intl.Collator('es');
const byName = (a: CodeOption, b: CodeOption) => collator.compare(a.name, b.name);

// Regions Intl names that are no country a visit can come from (the European Union, the United
// Nations, the eurozone, «Oceanía lejana», and the pseudo-locales).
const NOT_COUNTRIES = new Set(['EU', 'EZ', 'UN', 'QO', 'XA', 'XB']);

let countries: CodeOption[] | null = null;

/** Every ISO 3166-1 alpha-2 country Intl knows, by its Spanish name. Built once, on first use. */
export function countryOptions(): CodeOption[] {
  if (countries) return countries;
  const list: CodeOption[] = [];
  for (let first = 65; first <= 90; first += 1) {
    for (let second = 65; second <= 90; second += 1) {
      const code = String.fromCharCode(first, second);
      if (NOT_COUNTRIES.has(code) || !isCountryCode(code)) continue;
      list.push({ code, name: countryName(code) });
    }
  }
  countries = list.sort(byName);
  return countries;
}

// The languages offered without typing a code: the most spoken on the web, and Spain's own.
const COMMON_LANGUAGES = ['es', 'en', 'pt', 'fr', 'de', 'it', 'ca', 'eu', 'gl', 'nl', 'pl', 'ro', 'ru', 'uk', 'ar', 'zh', 'ja', 'ko', 'hi', 'tr', 'sv', 'da', 'nb', 'fi', 'el', 'he', 'cs', 'hu', 'id', 'vi', 'th'];

let languages: CodeOption[] | null = null;

/** The few languages shown before anything is typed, the most asked for first. */
let suggested: CodeOption[] | null = null;
export function suggestedLanguages(): CodeOption[] {
  suggested ??= COMMON_LANGUAGES.slice(0, 8).map((code) => ({ code, name: languageName(code) }));
  return suggested;
}

export function languageOptions(): CodeOption[] {
  languages ??= COMMON_LANGUAGES.map((code) => ({ code, name: languageName(code) })).sort(byName);
  return languages;
}

/** Lower case, without accents: «mexico» finds «México». */
export const foldText = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim();

/** The options whose name or code matches what was typed, names starting with it first. */
export function matchingOptions(options: readonly CodeOption[], typed: string, limit = 8): CodeOption[] {
  const wanted = foldText(typed);
  if (wanted === '') return options.slice(0, limit);
  const starts: CodeOption[] = [];
  const contains: CodeOption[] = [];
  for (const option of options) {
    const name = foldText(option.name);
    if (option.code.toLowerCase() === wanted || name.startsWith(wanted)) starts.push(option);
    else if (name.includes(wanted)) contains.push(option);
  }
  return [...starts, ...contains].slice(0, limit);
}

/** A typed language code the common list lacks but Intl knows ('eo'), to offer as it is. */
export function typedLanguageCode(typed: string): string | null {
  const code = typed.trim().toLowerCase();
  if (!isLanguageCode(code) || languageOptions().some((option) => option.code === code)) return null;
  return code;
}
