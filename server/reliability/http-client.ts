import http from 'node:http';
import net from 'node:net';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface RawRequest {
  method: string;
  /** Sent exactly as written: no normalising of '..', '%' or unicode. */
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

/**
 * One request over a real socket to 127.0.0.1, byte for byte as given (fetch would tidy the path
 * and the headers). A server that cuts the connection rejects, which a test reports as a failure.
 */
export function send(port: number, { method, path, headers = {}, body }: RawRequest): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: '127.0.0.1', port, method, path, headers: { connection: 'close', ...headers }, agent: false },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

export interface RawConnection {
  socket: net.Socket;
  /** Everything the server has sent so far, as text. */
  received(): string;
  /** Settles once the server (or the test) has closed the connection. */
  closed: Promise<void>;
  isClosed(): boolean;
}

/** A bare TCP connection to 127.0.0.1, for requests written by hand (half-sent, trickled, cut off). */
export function connect(port: number): Promise<RawConnection> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let closedYet = false;
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // A reset is a way of closing too; the test looks at what arrived before it.
    socket.on('error', () => {});
    const closed = new Promise<void>((done) => socket.once('close', () => ((closedYet = true), done())));
    socket.once('connect', () =>
      resolve({ socket, received: () => Buffer.concat(chunks).toString('utf8'), closed, isClosed: () => closedYet }),
    );
    socket.once('error', reject);
  });
}

/** The status and the JSON body of the one answer in `raw`. */
export function parseAnswer(raw: string): { status: number; body: unknown } {
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1] ?? 0);
  const text = raw.slice(raw.indexOf('\r\n\r\n') + 4);
  try {
    return { status, body: JSON.parse(text) };
  } catch {
    return { status, body: text };
  }
}
