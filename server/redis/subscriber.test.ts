import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { startTcpProxy, type TcpProxy } from '../reliability/tcp-proxy';
import { redisReachable, testRedisAddress, testRedisUrl } from '../test/redis';
import { newRedis, newSubscriber } from './redis-client';

const eventually = async (check: () => boolean, what: string) => {
  for (const started = Date.now(); !check(); await new Promise((resolve) => setTimeout(resolve, 20))) {
    if (Date.now() - started > 5000) throw new Error(`never: ${what}`);
  }
};

describe.skipIf(!(await redisReachable()))('a Redis subscriber', () => {
  let relay: TcpProxy;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  afterEach(async () => {
    process.off('unhandledRejection', onUnhandled);
    await relay?.close();
  });

  it('subscribes again after a reconnect, and a connection closed before Redis confirms it leaves no unhandled rejection', async () => {
    process.on('unhandledRejection', onUnhandled);
    relay = await startTcpProxy(testRedisAddress);
    const channel = `canal-${process.pid}-${Date.now()}`;
    let subscriptions = 0;
    const failures: Error[] = [];
    const { subscriber, subscribed } = newSubscriber(`redis://127.0.0.1:${relay.port}`, { lazyConnect: false, maxRetriesPerRequest: null }, [channel], {
      subscribed: () => (subscriptions += 1),
      failed: (error) => failures.push(error),
    });
    subscriber.on('error', () => {});
    const received: string[] = [];
    subscriber.on('message', (_channel: string, message: string) => received.push(message));
    await subscribed;
    expect(subscriptions).toBe(1);

    // Cut off and back: subscribed again, messages arrive again.
    await relay.cut();
    await relay.restore();
    await eventually(() => subscriptions === 2, 'subscribed again');
    const publisher = newRedis(testRedisUrl, {});
    await publisher.publish(channel, 'hola');
    await eventually(() => received.includes('hola'), 'the message after the reconnect');
    await publisher.quit();

    // Cut off, and closed the moment it is back, before Redis confirms the new subscription.
    await relay.cut();
    await relay.restore();
    subscriber.once('ready', () => subscriber.disconnect());
    await once(subscriber, 'end');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(failures.map(String)).toEqual(['Error: Connection is closed.']);
    expect(unhandled).toEqual([]);
  });
});
