// How titles are stored for searching and how a search term is turned into the same form, so the
// match is accent- and case-insensitive identically on SQLite and PostgreSQL (neither can do it
// alone without extensions). Changing it means rewriting every stored value (a migration).

const COMBINING_MARKS = /\p{M}/gu;

/**
 * Lowercase, compatibility-decomposed, without combining marks: 'Canción' and 'CANCION' both give
 * 'cancion', 'ÁRBOL' gives 'arbol', 'Niño' gives 'nino', the ligature 'ﬁ' gives 'fi'. Lowercased
 * first, so the marks some capitals gain when lowercased ('İ') go too.
 */
export function searchText(text: string): string {
  return text.toLowerCase().normalize('NFKD').replace(COMBINING_MARKS, '');
}
