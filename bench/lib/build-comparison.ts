// BENCH_BASELINE_SERVER: this build's redirect against another build's (an older commit's
// `npm run build:server` output), to say whether a change made the redirect slower.
//
// One pair of processes cannot say it: the same build served twice side by side differs by up to
// 25% from one process to the other (where each lands on the 2 cores), more than most changes
// move it. So several fresh pairs, each on folders made the same way, each measured in alternated
// rounds; the verdict is the median of every round's paired ratio, with the spread beside it.
import { sqliteBaselineDatabase } from './bench-database';
import { cpuSeconds, median } from './cpu-time';
import { load, type LoadResult } from './load';
import { npmStartFlags, type Started, startNode } from './processes';

const CONNECTIONS = 50;
const PAIRS = Number(process.env.BENCH_PAIRS ?? 4);
const ROUNDS = Number(process.env.BENCH_PAIR_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);


type Measured = LoadResult & { loopUs: number };

async function measure(url: string, pid: number | undefined): Promise<Measured> {
  const before = cpuSeconds(pid, true);
  const result = await load(url, CONNECTIONS, SECONDS);
  return { ...result, loopUs: ((cpuSeconds(pid, true) - before) * 1e6) / result.requests };
}

export async function compareBuilds(serverMain: string, baselineMain: string): Promise<void> {
  console.log(`\n--- this build against ${baselineMain}: ${PAIRS} pairs of fresh processes, ${ROUNDS} alternated rounds of ${SECONDS} s each ---`);
  const throughput: number[] = [];
  const loop: number[] = [];
  for (let pair = 0; pair < PAIRS; pair++) {
    const sides = [
      { name: 'baseline', main: baselineMain, folder: await sqliteBaselineDatabase(baselineMain) },
      { name: 'this build', main: serverMain, folder: await sqliteBaselineDatabase(serverMain) },
    ];
    // Which side starts first alternates too: the process started first was measured faster (0.86
    // for the same build against itself when the same side always started first).
    const servers: Started[] = [];
    for (const i of pair % 2 === 0 ? [0, 1] : [1, 0]) servers[i] = await startNode(sides[i]!.main, sides[i]!.folder.env, '/api/health', npmStartFlags());
    try {
      const urls = servers.map((server, i) => `http://127.0.0.1:${server.port}/${sides[i]!.folder.shortUrl}`);
      for (const url of urls) await load(url, CONNECTIONS, 2); // warm-up: JIT, cache
      const pairThroughput: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        // Which side goes first alternates with the round and the pair.
        const order = (round + pair) % 2 === 0 ? [0, 1] : [1, 0];
        const results: Measured[] = [];
        for (const i of order) results[i] = await measure(urls[i]!, servers[i]!.child.pid);
        pairThroughput.push(results[1]!.rps / results[0]!.rps);
        loop.push(results[1]!.loopUs / results[0]!.loopUs);
      }
      throughput.push(...pairThroughput);
      console.log(`pair ${pair + 1}: throughput this build / baseline, by round: ${pairThroughput.map((r) => r.toFixed(2)).join(', ')}`);
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
      for (const side of sides) side.folder.drop();
    }
  }
  const spread = (values: number[]) => `${Math.min(...values).toFixed(2)}-${Math.max(...values).toFixed(2)}`;
  console.log(
    `this build / baseline: throughput ${median(throughput).toFixed(2)} (rounds ${spread(throughput)}), ` +
      `event loop CPU per redirect ${median(loop).toFixed(2)} (rounds ${spread(loop)}); 1.00 = the same, ` +
      `and the same build against itself spreads about as wide`,
  );
}
