// Countries and languages by their Spanish names, from the browser's own Intl data.

const countryNames = new Intl.DisplayNames(['es'], { type: 'region', fallback: 'code' });
/** A country's Spanish name ('ES' -> 'España'); the code itself when Intl does not know it. */
export function countryName(code: string): string {
  try {
    return countryNames.of(code) ?? code;
  } catch {
    return code;
  }
}

const languageNames = new Intl.DisplayNames(['es'], { type: 'language', fallback: 'code' });

/** A language's Spanish name, capitalised as a label ('Español'); the code itself when unknown. */
export function languageName(code: string): string {
  let name: string;
  try {
    name = languageNames.of(code) ?? code;
  } catch {
    name = code;
  }
  return name.charAt(0).toLocaleUpperCase('es') + name.slice(1);
}

