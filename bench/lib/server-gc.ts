export interface GcSoFar {
  /** Each kind of collection (minor, major, incremental, weakcb): how many so far, and the seconds spent in them. */
  gc: Record<string, { count: number; seconds: number }>;
  /** The main thread's heap in use, MB. */
  heapMb: number;
}

/** A server's collections and heap so far, from its /metrics (prom-client's default metrics). */
export async function gcSoFar(base: string): Promise<GcSoFar> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const gc: GcSoFar['gc'] = {};
  for (const match of text.matchAll(/^nodejs_gc_duration_seconds_(sum|count)\{kind="(\w+)"\} ([\d.e+-]+)$/gm)) {
    const kind = (gc[match[2]!] ??= { count: 0, seconds: 0 });
    if (match[1] === 'sum') kind.seconds = Number(match[3]);
    else kind.count = Number(match[3]);
  }
  const heap = Number(text.match(/^nodejs_heap_size_used_bytes ([\d.e+-]+)$/m)?.[1] ?? NaN);
  return { gc, heapMb: heap / 1024 / 1024 };
}
