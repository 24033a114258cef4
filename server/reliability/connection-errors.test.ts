import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isConnectionError } from '../db/dialect';
import { startTcpProxy, type TcpProxy } from './tcp-proxy';

// pg reports some connection failures with a message and no code: they must still count as
// "database unavailable" (503), not as a bug (500). Real driver errors, through a relay.

describe.runIf(process.env.TEST_DATABASE_URL)("pg's connection errors without a code", () => {
  let proxy: TcpProxy;
  beforeAll(async () => {
    const real = new URL(process.env.TEST_DATABASE_URL!);
    proxy = await startTcpProxy({ host: real.hostname, port: Number(real.port || 5432) });
  });
  afterAll(async () => proxy?.close());

  const poolVia = () => {
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    const pool = new pg.Pool({ connectionString: url.toString(), connectionTimeoutMillis: 500, max: 1 });
    pool.on('error', () => {});
    return pool;
  };

  it('counts a connection that never completes (a silent network) as the database being unavailable', async () => {
    const pool = poolVia();
    proxy.stall();
    try {
      const error = await pool.query('select 1').then(() => undefined, (caught: unknown) => caught);
      expect(error).toBeInstanceOf(Error);
      expect((error as { code?: unknown }).code).toBeUndefined();
      expect(isConnectionError(error), String(error)).toBe(true);
    } finally {
      proxy.resume();
      await pool.end();
    }
  });

  it('counts a connection cut during a query as the database being unavailable', async () => {
    const pool = poolVia();
    try {
      const client = await pool.connect();
      client.on('error', () => {});
      const running = client.query('select pg_sleep(5)').then(() => undefined, (caught: unknown) => caught);
      await new Promise((resolve) => setTimeout(resolve, 100));
      await proxy.cut();
      const error = await running;
      client.release(true);
      expect(isConnectionError(error), String(error)).toBe(true);
      await proxy.restore();
      // And the pool serves again once the database is back.
      expect((await pool.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await pool.end();
    }
  });
});
