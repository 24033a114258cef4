import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Webhook } from '@common/webhooks/webhook-schemas';
import type { FastifyInstance } from 'fastify';
import { Webhook as Verifier } from 'standardwebhooks';
import { call } from '../admin/admin-test-support';

// A real HTTP receiver for the tests: it verifies every delivery's signature with the
// standardwebhooks package, as a customer's receiver would, and keeps what it got.

export interface Received {
  id: string;
  headers: IncomingHttpHeaders;
  body: { type: string; timestamp: string; data: Record<string, unknown> };
  /** Whether the signature verified with the secret the receiver was told. */
  verified: boolean;
  /** The status it was answered with ('hang': never). */
  answeredWith: number | 'hang';
}

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** The secret deliveries must be signed with (set once the webhook is created). */
  secret: string | undefined;
  /** How to answer from now on: a status, or 'hang' (never answer). */
  answer: number | 'hang';
  /** Bytes added to each answer's body (a receiver answering megabytes). */
  answerBytes: number;
  /** A wait before each answer (a receiver slower than the clicks). */
  delayMs: number;
  close(): Promise<void>;
}

export async function startReceiver(host = '127.0.0.1'): Promise<Receiver> {
  const receiver: Receiver = {
    url: '',
    port: 0,
    received: [],
    secret: undefined,
    answer: 200,
    answerBytes: 0,
    delayMs: 0,
    close: async () => {},
  };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => void setTimeout(answer, receiver.delayMs));
    const answer = () => {
      const payload = Buffer.concat(chunks).toString('utf8');
      let verified = false;
      try {
        new Verifier(receiver.secret ?? 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw').verify(payload, request.headers as Record<string, string>);
        verified = true;
      } catch {
        verified = false;
      }
      receiver.received.push({ id: String(request.headers['webhook-id']), headers: request.headers, body: JSON.parse(payload), verified, answeredWith: receiver.answer });
      if (receiver.answer === 'hang') return;
      response.writeHead(receiver.answer, { 'content-type': 'text/plain' });
      if (receiver.answerBytes > 0) {
        const block = Buffer.alloc(64 * 1024, 'x');
        let left = receiver.answerBytes;
        const more = () => {
          while (left > 0) {
            left -= block.length;
            if (!response.write(block)) return void response.once('drain', more);
          }
          response.end();
        };
        response.on('error', () => {});
        more();
      } else response.end('ok');
    };
  });
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://${host}:${receiver.port}/corto`;
  receiver.close = () =>
    new Promise((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return receiver;
}

const inWorkspace = (url: string, slug?: string) => (slug ? `${url}${url.includes('?') ? '&' : '?'}workspace=${slug}` : url);

export function webhookCall(app: FastifyInstance, cookie: string | undefined, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, slug?: string) {
  return call(app, cookie, method, inWorkspace(url, slug), payload);
}

/** A webhook that must be created; the receiver is told its secret. */
export async function createWebhookAs(
  app: FastifyInstance,
  cookie: string,
  body: { url: string; events: string[]; links?: number[] },
  receiver?: Receiver,
  slug?: string,
): Promise<{ webhook: Webhook; secret: string }> {
  const response = await webhookCall(app, cookie, 'POST', '/api/webhooks', body, slug);
  if (response.statusCode !== 201) throw new Error(`create webhook: ${response.statusCode} ${response.body}`);
  const created = response.json() as { webhook: Webhook; secret: string };
  if (receiver) receiver.secret = created.secret;
  return created;
}

/** Waits until `done` holds, polling; fails naming `what`. */
export async function eventually(done: () => boolean | Promise<boolean>, what: string, limitMs = 20_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
