import net from 'node:net';

export interface TcpProxy {
  port: number;
  /** Drops every open connection and refuses new ones, as if the database had gone away. */
  cut(): Promise<void>;
  /** Keeps every connection open but passes nothing either way (a network partition, no RST). */
  stall(): void;
  /** Lets the stalled connections flow again. */
  resume(): void;
  /** Listens again on the same port: the database is back. */
  restore(): Promise<void>;
  close(): Promise<void>;
  /** Connections accepted since the start. */
  readonly accepted: number;
  /** Bytes the target has sent through the proxy since the start. */
  readonly bytesFromTarget: number;
}

/**
 * A loopback TCP relay between the server under test and PostgreSQL, so a test can take the
 * database away from one server without touching the shared PostgreSQL itself.
 */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let accepted = 0;
  let bytesFromTarget = 0;
  let stalled = false;
  const server = net.createServer((client) => {
    accepted += 1;
    const upstream = net.connect(target);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => socket.destroy());
    }
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    upstream.on('data', (chunk: Buffer) => (bytesFromTarget += chunk.length));
    client.pipe(upstream);
    upstream.pipe(client);
    // After pipe(), which would start the flow again.
    if (stalled) {
      client.pause();
      upstream.pause();
    }
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen(0);
  const { port } = server.address() as net.AddressInfo;
  const stop = async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
  };
  return {
    port,
    cut: stop,
    stall() {
      stalled = true;
      for (const socket of sockets) socket.pause();
    },
    resume() {
      stalled = false;
      for (const socket of sockets) socket.resume();
    },
    restore: () => listen(port),
    close: () => (server.listening ? stop() : Promise.resolve()),
    get accepted() {
      return accepted;
    },
    get bytesFromTarget() {
      return bytesFromTarget;
    },
  };
}
