import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import type { Visit } from './enrich';
import { unpackVisits, VisitBatch, VisitBatchPool } from './visit-batch';

const visits: Visit[] = [
  { urlId: 7, at: 1_795_000_000_123, ip: '203.0.113.9', userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/131.0', referrer: 'https://ejemplo.es/página' },
  { urlId: 2 ** 40, at: 1_795_000_000_124, ip: '2001:db8::1', userAgent: undefined, referrer: undefined, scan: true },
  { urlId: 9, at: 1_795_000_000_125, ip: '198.51.100.4', userAgent: '', referrer: '', limited: true },
  { urlId: 9, at: 1_795_000_000_126, ip: '198.51.100.4', userAgent: 'Agente con eñe y 😀', referrer: undefined, limited: true, scan: true },
];

// A link with rules or variants: where each visit went (0: the link's own URL).
const routed: Visit[] = [
  { urlId: 11, at: 1_795_000_000_127, ip: '203.0.113.10', userAgent: 'UA', referrer: undefined, destinationId: 42 },
  { urlId: 11, at: 1_795_000_000_128, ip: '203.0.113.11', userAgent: 'UA', referrer: undefined, destinationId: 0 },
  { urlId: 12, at: 1_795_000_000_129, ip: '203.0.113.12', userAgent: undefined, referrer: 'https://a.es', scan: true, destinationId: 2 ** 33 },
];

describe('a packed batch of visits', () => {
  it('gives back every field as it was appended, absent strings apart from empty ones', () => {
    const batch = new VisitBatch(10);
    for (const visit of visits) batch.append(visit);
    expect(batch.count).toBe(4);
    expect(batch.oldestAt).toBe(1_795_000_000_123);
    expect(unpackVisits(batch.packed())).toEqual(visits);
  });

  it('carries where a routed visit went, and no destination memory at all while none has one', () => {
    const batch = new VisitBatch(10);
    for (const visit of visits) batch.append(visit);
    expect(batch.packed().destinations).toBeUndefined();
    for (const visit of [...routed, visits[1]!]) batch.append(visit);
    expect(batch.packed().destinations).toBeInstanceOf(SharedArrayBuffer);
    expect(batch.visits()).toEqual([...visits, ...routed, visits[1]]);
    expect(batch.slice(4, 6).visits()).toEqual(routed.slice(0, 2));
    // Reused: a plain visit in a slot a routed one held has no destination.
    batch.clear();
    batch.append(visits[0]!);
    expect(batch.visits()).toEqual([visits[0]]);
    expect(batch.visits()[0]).not.toHaveProperty('destinationId');
  });

  it('grows its text for strings longer than the first guess, keeping what it held', () => {
    const batch = new VisitBatch(3);
    const long = 'x'.repeat(5000);
    batch.append(visits[0]!);
    batch.append({ ...visits[1]!, userAgent: long, referrer: `https://${long}` });
    batch.append(visits[2]!);
    expect(batch.full).toBe(true);
    expect(batch.visits()).toEqual([visits[0], { ...visits[1], userAgent: long, referrer: `https://${long}` }, visits[2]]);
  });

  it('slices into batches of their own, as a refused batch is halved', () => {
    const batch = new VisitBatch(10);
    for (const visit of visits) batch.append(visit);
    expect(batch.slice(0, 2).visits()).toEqual(visits.slice(0, 2));
    expect(batch.slice(2, 4).visits()).toEqual(visits.slice(2, 4));
  });

  it('is read on another thread from the same memory, without a copy', async () => {
    const batch = new VisitBatch(10);
    for (const visit of visits) batch.append(visit);
    // The thread writes into the shared memory: seen here, it was not a copy that crossed.
    const worker = new Worker(
      `const { parentPort } = require('node:worker_threads');
       parentPort.once('message', (packed) => { new Float64Array(packed.fixed, 0, 1)[0] = 99; parentPort.postMessage(packed.count); });`,
      { eval: true },
    );
    try {
      const count = await new Promise((resolve) => {
        worker.once('message', resolve);
        worker.postMessage(batch.packed());
      });
      expect(count).toBe(4);
      expect(batch.visits()[0]!.urlId).toBe(99);
    } finally {
      await worker.terminate();
    }
  });

  it('is emptied and reused by the pool, up to the number it keeps', () => {
    const pool = new VisitBatchPool(5, 1);
    const first = pool.take();
    first.append(visits[0]!);
    const second = pool.take();
    pool.give(first);
    pool.give(second); // beyond what the pool keeps: left to the collector
    const reused = pool.take();
    expect(reused).toBe(first);
    expect(reused.count).toBe(0);
    expect(reused.oldestAt).toBeUndefined();
    expect(pool.take()).not.toBe(second);
    pool.give(new VisitBatch(2)); // another size (a halved batch) is not kept
    expect(pool.take().capacity).toBe(5);
  });
});
