import { LONG_URL_MAX_LENGTH, linkMessages as m } from './link-messages';

// The format rules of a destination URL, apart from link-schemas.ts so that the rules' schemas
// (common/rules/rule-schemas.ts), which link-schemas.ts reads, can use them without a cycle.

// C0, DEL and C1 controls: invisible, break logs and CSV, and PostgreSQL refuses NUL in text.
const CONTROL_CHARACTER = /\p{Cc}/u;

/** Every message that applies to a long URL already trimmed; empty when it is acceptable. */
export function longUrlProblems(value: string): string[] {
  if (value === '') return [m.longUrlRequired];
  const problems: string[] = [];
  if (value.length > LONG_URL_MAX_LENGTH) problems.push(m.longUrlTooLong);
  // The URL parser would silently drop a tab or a line break and keep going: refuse them instead.
  if (CONTROL_CHARACTER.test(value)) return [...problems, m.longUrlInvalid];
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    problems.push(m.longUrlInvalid);
  }
  if (url && url.protocol !== 'http:' && url.protocol !== 'https:') problems.push(m.longUrlProtocol);
  // An empty label ('a..b', '.a') is no host name; final dots ('example.com.') are the DNS root.
  else if (url && (!url.hostname || url.hostname.replace(/\.+$/, '').split('.').includes(''))) problems.push(m.longUrlInvalid);
  return problems;
}
