// Merging parameters into a URL's query string without re-writing the rest of it: the pairs the
// merge does not name stay exactly as they were ('?flag', '?a=b+c', odd escapes included), and so
// does the fragment. URLSearchParams would re-serialise every pair ('flag' becomes 'flag='), which
// can break a destination that reads its own query strictly. Shared by the UTM builder (browser)
// and the redirect's query forwarding (server).

/** One change: every pair named `key` (decoded) is replaced by `pairs` (raw 'k=v' text; empty removes them). */
export interface QueryChange {
  key: string;
  pairs: string[];
}

const decode = (text: string) => {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
};

/** The decoded name of a raw 'k=v' pair. */
export function pairKey(pair: string): string {
  const equals = pair.indexOf('=');
  return decode(equals === -1 ? pair : pair.slice(0, equals));
}

/** The decoded value of a raw 'k=v' pair ('' for a bare 'k'). */
export function pairValue(pair: string): string {
  const equals = pair.indexOf('=');
  return equals === -1 ? '' : decode(pair.slice(equals + 1));
}

/** The raw pair for a name and value: both percent-encoded. */
export function queryPair(key: string, value: string): string {
  return `${encodeURIComponent(key)}=${encodeURIComponent(value)}`;
}

/** A raw query string ('a=1&b' without the '?') as its changes: each name with its pairs, in order. */
export function changesOfQuery(query: string): QueryChange[] {
  const byKey = new Map<string, string[]>();
  for (const pair of query.split('&')) {
    if (pair === '') continue;
    const key = pairKey(pair);
    const list = byKey.get(key);
    if (list) list.push(pair);
    else byKey.set(key, [pair]);
  }
  return [...byKey].map(([key, pairs]) => ({ key, pairs }));
}

/**
 * `url` with the changes applied: a name already there is replaced where it first stood (its other
 * occurrences removed), a new one is appended; everything else, the fragment included, is kept.
 */
export function mergeQuery(url: string, changes: readonly QueryChange[]): string {
  if (changes.length === 0) return url;
  const hashAt = url.indexOf('#');
  const fragment = hashAt === -1 ? '' : url.slice(hashAt);
  const beforeFragment = hashAt === -1 ? url : url.slice(0, hashAt);
  const queryAt = beforeFragment.indexOf('?');
  const head = queryAt === -1 ? beforeFragment : beforeFragment.slice(0, queryAt);
  const query = queryAt === -1 ? '' : beforeFragment.slice(queryAt + 1);

  const wanted = new Map<string, string[]>();
  for (const { key, pairs } of changes) wanted.set(key, [...(wanted.get(key) ?? []), ...pairs]);
  const out: string[] = [];
  const placed = new Set<string>();
  for (const pair of query === '' ? [] : query.split('&')) {
    const key = pair === '' ? undefined : pairKey(pair);
    const replacement = key === undefined ? undefined : wanted.get(key);
    if (replacement === undefined) {
      if (pair !== '') out.push(pair);
      continue;
    }
    if (!placed.has(key!)) out.push(...replacement);
    placed.add(key!);
  }
  for (const [key, pairs] of wanted) if (!placed.has(key)) out.push(...pairs);
  return `${head}${out.length > 0 ? `?${out.join('&')}` : ''}${fragment}`;
}
