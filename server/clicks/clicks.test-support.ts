import { randomUUID } from 'node:crypto';
import { createServer, type Server, type Socket, connect } from 'node:net';
import pg from 'pg';

async function adminQuery(url: string, text: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** A PostgreSQL schema of our own, with a connection URL that selects it (for a server process). */
export async function postgresSchema(url: string) {
  const schema = `test_${randomUUID().replaceAll('-', '')}`;
  await adminQuery(url, `create schema ${schema}`);
  const separator = url.includes('?') ? '&' : '?';
  return {
    schema,
    urlWithSchema: `${url}${separator}options=${encodeURIComponent(`-c search_path=${schema}`)}`,
    drop: () => adminQuery(url, `drop schema ${schema} cascade`),
  };
}

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
