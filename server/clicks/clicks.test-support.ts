import { createServer, type Server, type Socket, connect } from 'node:net';

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
