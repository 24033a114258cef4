import { load, loadGenerator, type LoadResult } from './load';

/**
 * Requests the next of `urls` until stopped, one after another, or at most one per `everyMs` (a
 * person switching periods and reloading); returns each one's milliseconds.
 */
async function keepRequesting(urls: string[], cookie: string, signal: AbortSignal, everyMs = 0): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; !signal.aborted; i++) {
    const started = performance.now();
    const paced = everyMs > 0 ? new Promise((resolve) => setTimeout(resolve, everyMs)) : undefined;
    // No signal handed to fetch: each call would add a listener to the one shared signal and never
    // take it off (thousands a run, with a warning each); a loop ends after its request instead.
    const response = await fetch(urls[i % urls.length]!, { headers: { cookie } });
    for await (const _chunk of response.body!) {
      // read and dropped
    }
    samples.push(performance.now() - started);
    await paced;
  }
  return samples;
}

/** A loop of requests running beside the redirect load: one URL, or several taken in turn. */
export interface Beside {
  url: string | string[];
  everyMs?: number;
}

/** Redirect load for `seconds`, with `besides` requested in loops meanwhile (none for the baseline). */
export async function redirectsWith(redirectUrl: string, connections: number, seconds: number, cookie: string, besides: Beside[]) {
  const stop = new AbortController();
  const loops = besides.map(({ url, everyMs }) => keepRequesting([url].flat(), cookie, stop.signal, everyMs));
  const result: LoadResult = await load(redirectUrl, connections, seconds);
  stop.abort();
  const samples = (await Promise.all(loops)).flat();
  return { result, samples };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const fmt = (n: number, digits = 2) => n.toFixed(digits).padStart(9);

export interface BesideComparison {
  redirectUrl: string;
  connections: number;
  seconds: number;
  rounds: number;
  cookie: string;
  /** 'alone' (no loops) is the baseline every other case's p99 is compared with. */
  cases: Record<string, Beside[]> & { alone: Beside[] };
  /** How the requests beside are named in the report ('searches', 'beside: ... requests'). */
  besideLabel: string;
}

/**
 * Redirect load alone and beside each case's loops, the cases taken in turn every round (so drift
 * on a shared machine moves them all), then one line each: throughput, p50, p99 and p99 against alone.
 */
export async function compareRedirectsBeside({ redirectUrl, connections, seconds, rounds, cookie, cases, besideLabel }: BesideComparison) {
  const runs: Record<string, { results: LoadResult[]; samples: number[] }> = {};
  const names = Object.keys(cases);
  for (let round = 0; round < rounds; round++) {
    for (const name of names.map((_, i) => names[(i + round) % names.length]!)) {
      const { result, samples } = await redirectsWith(redirectUrl, connections, seconds, cookie, cases[name]!);
      (runs[name] ??= { results: [], samples: [] }).results.push(result);
      runs[name].samples.push(...samples);
    }
  }
  console.log(`redirects (GET /{code}, ${connections} connections, ${loadGenerator}), median of ${rounds} rounds of ${seconds} s:`);
  const alone = median(runs.alone!.results.map((r) => r.p99ms));
  const width = Math.max(...names.map((name) => name.length)) + 2;
  for (const [name, { results, samples }] of Object.entries(runs)) {
    const p99 = median(results.map((r) => r.p99ms));
    const beside = samples.length ? `   ${besideLabel}: ${samples.length}, median ${median(samples).toFixed(1)} ms` : '';
    console.log(
      `  ${name.padEnd(width)}${fmt(median(results.map((r) => r.rps)), 0)} req/s   p50 ${fmt(median(results.map((r) => r.p50ms)))} ms   p99 ${fmt(p99)} ms   ${(p99 / alone).toFixed(2)}x alone${beside}`,
    );
  }
}
