import { agents } from '../redirect/redirect.test-support';

export interface LoadTally {
  /** Answers by status; 0 counts requests that got no answer (refused, cut). */
  statuses: Record<number, number>;
  readonly redirects: number;
}

export interface RedirectLoad {
  tally: LoadTally;
  /** Stops the workers and waits for the requests in flight. */
  stop(): Promise<LoadTally>;
}

/**
 * A small load generator: `workers` loops of GET {url}, each waiting for its answer (so the count
 * of 302s is exact), with a desktop browser's User-Agent so every visit counts as a click.
 */
export function redirectLoad(url: () => string, workers = 16): RedirectLoad {
  const statuses: Record<number, number> = {};
  let stopped = false;
  const loop = async () => {
    while (!stopped) {
      let status = 0;
      try {
        const response = await fetch(url(), { redirect: 'manual', headers: { 'user-agent': agents.desktop } });
        await response.arrayBuffer();
        status = response.status;
      } catch {
        // Refused or cut mid-way: the server was going away. Not a redirect, and not counted as one.
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  };
  const running = Promise.all(Array.from({ length: workers }, loop));
  const tally: LoadTally = {
    statuses,
    get redirects() {
      return statuses[302] ?? 0;
    },
  };
  return {
    tally,
    async stop() {
      stopped = true;
      await running;
      return tally;
    },
  };
}
