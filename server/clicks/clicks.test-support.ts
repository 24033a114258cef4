import { createServer, type Server, type Socket, connect } from 'node:net';
import type { TestApp } from '../test/test-app';
import type { Visit } from './enrich';

/**
 * A TCP relay in front of a real server that can be switched off and on: while off it cuts every
 * open connection and refuses new ones, as a database that went away would.
 */
export async function switchableRelay(targetHost: string, targetPort: number) {
  let up = true;
  const open = new Set<Socket>();
  const server: Server = createServer((client) => {
    if (!up) return client.destroy();
    const upstream = connect(targetPort, targetHost);
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => {});
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    down() {
      up = false;
      for (const socket of open) socket.destroy();
    },
    up() {
      up = true;
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** Visits handed to the app's real click writer, as the redirect hands them, then written. */
export async function recordVisits(t: TestApp, visits: Visit[]): Promise<void> {
  for (const visit of visits) t.app.appContext.clickWriter.record(visit);
  await t.app.appContext.clickWriter.flush();
}

/** A visit now from an address and agent; a routed link's carries where it went (0: the link's own URL). */
export function visitFrom(urlId: number, ip: string, userAgent: string, destinationId?: number): Visit {
  return { urlId, at: Date.now(), ip, userAgent, referrer: undefined, ...(destinationId === undefined ? {} : { destinationId }) };
}
