import type { FastifyBaseLogger } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createLimiterFactory, type LimiterFactory } from './shared-limiter';
import { redisReachable, testRedisUrl as redisUrl } from '../test/redis';

const hasRedis = await redisReachable(redisUrl);
if (!hasRedis) console.warn(`shared-limiter.test: no Redis at ${redisUrl}; shared tests skipped`);

function recordingLog() {
  const lines: string[] = [];
  const log = {
    warn: (_object: unknown, message?: string) => void lines.push(message ?? String(_object)),
    info: (_object: unknown, message?: string) => void lines.push(message ?? String(_object)),
  } as unknown as FastifyBaseLogger;
  return { log, lines };
}

const opened: LimiterFactory[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((factory) => factory.close()));
});
function factory(url: string | undefined, log = recordingLog().log) {
  const made = createLimiterFactory({ redisUrl: url, log });
  opened.push(made);
  return made;
}
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}`;

describe('a shared limiter', () => {
  it('counts down in memory without Redis and refuses beyond its points, with the seconds to wait', async () => {
    const limiter = factory(undefined).create({ name: unique('mem'), points: 2, durationSeconds: 60 });
    expect(await limiter.consume('k')).toMatchObject({ allowed: true, limit: 2, remaining: 1 });
    expect(await limiter.consume('k')).toMatchObject({ allowed: true, remaining: 0 });
    const refused = await limiter.consume('k');
    expect(refused).toMatchObject({ allowed: false, remaining: 0 });
    expect(refused.resetSeconds).toBeGreaterThan(0);
    expect(refused.resetSeconds).toBeLessThanOrEqual(60);
    // Another key has its own window.
    expect((await limiter.consume('other')).allowed).toBe(true);
  });

  it('allows everything with 0 points', async () => {
    const limiter = factory(undefined).create({ name: unique('off'), points: 0, durationSeconds: 60 });
    for (let i = 0; i < 5; i++) expect((await limiter.consume('k')).allowed).toBe(true);
  });

  it.runIf(hasRedis)('is shared by two instances through Redis', async () => {
    const name = unique('shared');
    const [first, second] = [factory(redisUrl), factory(redisUrl)];
    await Promise.all([first.settled, second.settled]);
    const one = first.create({ name, points: 3, durationSeconds: 60 });
    const two = second.create({ name, points: 3, durationSeconds: 60 });
    expect(await one.consume('k')).toMatchObject({ allowed: true, remaining: 2 });
    expect(await two.consume('k')).toMatchObject({ allowed: true, remaining: 1 });
    expect(await one.consume('k')).toMatchObject({ allowed: true, remaining: 0 });
    expect((await two.consume('k')).allowed).toBe(false);
    await one.reset('k');
    expect((await two.consume('k')).allowed).toBe(true);
  });

  it('falls back to counting per instance, with a log line, when Redis is unreachable', async () => {
    const { log, lines } = recordingLog();
    // A port nothing listens on: connecting fails at once.
    const made = factory('redis://127.0.0.1:1', log);
    const limiter = made.create({ name: unique('down'), points: 2, durationSeconds: 60 });
    expect((await limiter.consume('k')).allowed).toBe(true);
    expect((await limiter.consume('k')).allowed).toBe(true);
    expect((await limiter.consume('k')).allowed).toBe(false);
    for (let i = 0; i < 50 && lines.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(lines.some((line) => line.includes('rate limits now count per instance'))).toBe(true);
  });
});
