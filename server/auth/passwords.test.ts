import { readFile } from 'node:fs/promises';
import { hash } from '@node-rs/argon2';
import { describe, expect, it } from 'vitest';
import { AppError } from '../http/app-error';
import { createHashGate, HASH_CONCURRENCY, HASH_QUEUE_LIMIT, hashPassword, verifyPassword } from './passwords';

describe('bounded password hashing', () => {
  it('never runs more real argon2 hashes at once than its bound, however many are asked for', async () => {
    const gate = createHashGate(2, 100);
    let inFlight = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        gate.run(async () => {
          inFlight += 1;
          most = Math.max(most, inFlight);
          try {
            return await hash(`clave-de-prueba-${i}`);
          } finally {
            inFlight -= 1;
          }
        }),
      ),
    );
    expect(most).toBe(2);
  });

  it('refuses, as busy with a Retry-After, what arrives once the queue is full, and runs the rest', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: HASH_CONCURRENCY + HASH_QUEUE_LIMIT + 20 }, (_, i) => hashPassword(`rafaga-${i}-clave`)),
    );
    const refused = results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason as unknown);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(HASH_CONCURRENCY + HASH_QUEUE_LIMIT);
    expect(refused).toHaveLength(20);
    for (const error of refused) {
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ code: 'busy', statusCode: 503, retryAfterSeconds: 1 });
    }
    // Once the burst is over, hashing works again.
    expect(await verifyPassword(await hashPassword('otra-vez-bien'), 'otra-vez-bien')).toBe(true);
  });

  it('leaves libuv threads free: a file read started during a burst of hashes ends before the burst does', async () => {
    const stored = await hashPassword('clave-guardada');
    const order: string[] = [];
    const burst = Array.from({ length: 30 }, (_, i) =>
      verifyPassword(i % 2 ? stored : undefined, 'adivinanza').then(() => order.push('hash')),
    );
    // Once the first hash is done, every other one is waiting: the read comes after all of them in
    // libuv's queue unless some threads are kept for it.
    await Promise.race(burst);
    const read = readFile(new URL(import.meta.url)).then(() => order.push('read'));
    await Promise.all([...burst, read]);
    const readAt = order.indexOf('read');
    console.log(`file read finished after ${readAt} of ${burst.length} hashes`);
    expect(readAt).toBeLessThan(burst.length / 2);
  });
});
