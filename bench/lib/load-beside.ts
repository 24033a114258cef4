import { load, type LoadResult } from './load';

/**
 * Requests the next of `urls` until stopped, one after another, or at most one per `everyMs` (a
 * person switching periods and reloading); returns each one's milliseconds.
 */
async function keepRequesting(urls: string[], cookie: string, signal: AbortSignal, everyMs = 0): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; !signal.aborted; i++) {
    const started = performance.now();
    const paced = everyMs > 0 ? new Promise((resolve) => setTimeout(resolve, everyMs)) : undefined;
    try {
      const response = await fetch(urls[i % urls.length]!, { headers: { cookie }, signal });
      for await (const _chunk of response.body!) {
        // read and dropped
      }
      samples.push(performance.now() - started);
    } catch (error) {
      if (!signal.aborted) throw error;
    }
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
