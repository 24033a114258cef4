// Control characters in what a client sends: one rule for every text field of every route, applied
// by the server to each request's path parameters, query string and JSON body before the route's
// own schema (server/http/control-characters.ts), so a new field cannot forget it.

/** C0, DEL and C1 controls: invisible, break logs and CSV, and PostgreSQL refuses NUL in text. */
export const CONTROL_CHARACTER = /\p{Cc}/u;
/** The same less the tab and the line feed, which a multi-line text (a report's reason) may hold. */
export const MULTILINE_CONTROL_CHARACTER = /[^\P{Cc}\t\n]/u;

export const textMessages = {
  controlCharacters: 'El texto no puede contener caracteres de control (saltos de línea, tabuladores, NUL...)',
  multilineControlCharacters: 'El texto no puede contener caracteres de control (NUL, escape...); solo saltos de línea y tabuladores',
} as const;

/** Why a text cannot be taken as it is, or undefined: `multiline` lets line feeds and tabs through. */
export function controlCharacterProblem(value: string, multiline = false): string | undefined {
  if (multiline) return MULTILINE_CONTROL_CHARACTER.test(value) ? textMessages.multilineControlCharacters : undefined;
  return CONTROL_CHARACTER.test(value) ? textMessages.controlCharacters : undefined;
}
