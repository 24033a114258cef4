import { randomBytes } from 'node:crypto';
import { Resolver } from 'node:dns/promises';

// The proof that a workspace holds a domain: a TXT record at _corto-challenge.{hostname} holding
// the value Corto gave it when the domain was added.

const VALUE_PREFIX = 'corto-verify=';
/** Per try; c-ares waits longer on the second. Well inside the API's deadline (10 s) overall. */
const TRY_TIMEOUT_MS = 2000;
const TRIES = 2;
const OVERALL_MS = 7000;
/** What a 409 quotes of the values found: enough to recognise them, not a page of text. */
const SHOWN_VALUES = 5;
const SHOWN_LENGTH = 80;

export function newVerificationValue(): string {
  return VALUE_PREFIX + randomBytes(16).toString('base64url');
}

export type ChallengeLookup =
  | { outcome: 'found' }
  | { outcome: 'missing' }
  | { outcome: 'wrong'; found: string[] }
  | { outcome: 'failed'; code: string };

/** A record's text as people paste it: spaces around it and one pair of quotes are forgiven. */
function cleaned(value: string): string {
  const text = value.trim();
  return text.length >= 2 && text.startsWith('"') && text.endsWith('"') ? text.slice(1, -1).trim() : text;
}

const shown = (value: string) => (value.length > SHOWN_LENGTH ? `${value.slice(0, SHOWN_LENGTH)}…` : value);

/**
 * Looks the TXT records at `name` up (through `servers` when given, else the system's resolver)
 * and says whether one holds `expected`. Never throws: a resolver that does not answer, refuses or
 * is misconfigured is 'failed'.
 */
export async function lookUpChallenge(name: string, expected: string, servers: string[] | undefined): Promise<ChallengeLookup> {
  const resolver = new Resolver({ timeout: TRY_TIMEOUT_MS, tries: TRIES });
  let timer: NodeJS.Timeout | undefined;
  try {
    if (servers?.length) resolver.setServers(servers);
    const deadline = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        resolver.cancel();
        reject(Object.assign(new Error('DNS lookup past its deadline'), { code: 'ETIMEOUT' }));
      }, OVERALL_MS);
    });
    // A record comes in chunks of at most 255 bytes: its value is their concatenation.
    const records = (await Promise.race([resolver.resolveTxt(name), deadline])).map((chunks) => cleaned(chunks.join('')));
    if (records.includes(expected)) return { outcome: 'found' };
    if (records.length === 0) return { outcome: 'missing' };
    return { outcome: 'wrong', found: records.slice(0, SHOWN_VALUES).map(shown) };
  } catch (error) {
    const code = String((error as { code?: unknown } | null)?.code ?? 'EUNKNOWN');
    // No such name, or a name without TXT records.
    if (code === 'ENOTFOUND' || code === 'ENODATA') return { outcome: 'missing' };
    return { outcome: 'failed', code };
  } finally {
    clearTimeout(timer);
  }
}
