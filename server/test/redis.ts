import { connect } from 'node:net';

/** The Redis the tests of shared state use: TEST_REDIS_URL, or the machine's own. */
export const testRedisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** The host and port of testRedisUrl, for the tests that reach it through a relay they can cut. */
export const testRedisAddress = { host: new URL(testRedisUrl).hostname, port: Number(new URL(testRedisUrl).port || 6379) };

/** Whether anything accepts a connection at a Redis address: the tests that need one skip, saying so, where nothing does. */
export function redisReachable(url = testRedisUrl): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port || 6379), hostname);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}
