import { setFlagsFromString } from 'node:v8';
import type { ResourceLimits } from 'node:worker_threads';

/**
 * How far V8 lets a heap grow past what survived its last full collection before the next one:
 * 30 % rather than V8's own choice, which under a steady stream of redirects reached several
 * times the live heap (the click queue's visits live long enough to reach the old generation and
 * die there). Measured with `npm run bench:memory` and `npm run bench:redirect`: a quarter less
 * memory after load, and no more event-loop CPU per redirect. V8 reads it at each collection, so
 * setting it once the process runs works, for every thread.
 */
export const HEAP_GROWING_PERCENT = 30;

export function limitHeapGrowth(percent = HEAP_GROWING_PERCENT): void {
  setFlagsFromString(`--heap-growing-percent=${percent}`);
}

/**
 * The database threads' young generation: their work comes in batches (5,000 clicks to enrich, a
 * page of roll-ups) whose objects die with the batch, so a small nursery collects them as well as
 * a large one, and the threads' heaps stay small. Their extra collections are theirs, off the
 * event loop.
 */
export const DATABASE_THREAD_LIMITS: ResourceLimits = { maxYoungGenerationSizeMb: 8 };
