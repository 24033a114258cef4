import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkMessages } from '@common/messages';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, apiFetch } from './client';

// The API client against real sockets: a server that answers, one that never does, and a port
// where nobody listens.

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

async function listen(handle: (request: IncomingMessage, respond: (status: number, body?: string) => void) => void): Promise<string> {
  server = createServer((request, response) =>
    handle(request, (status, body) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(body);
    }),
  );
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
}

const failureOf = (promise: Promise<unknown>) => promise.then(() => { throw new Error('it succeeded'); }, (error: unknown) => error as ApiError);

describe('apiFetch', () => {
  it('says in Spanish that the server could not be reached, never "Failed to fetch"', async () => {
    const base = await listen((_request, respond) => respond(200, '{}'));
    server!.close();
    await new Promise((resolve) => setTimeout(resolve, 10));
    const error = await failureOf(apiFetch(`${base}/api/links`));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 0, code: 'network', message: networkMessages.unreachable });
    expect(error.unanswered).toBe(true);
  });

  it('gives up after its deadline with a Spanish message, when the server never answers', async () => {
    const base = await listen(() => {}); // holds every request
    const started = Date.now();
    const error = await failureOf(apiFetch(`${base}/api/links`, { timeoutMs: 200 }));
    expect(error).toMatchObject({ status: 0, code: 'timeout', message: networkMessages.timeout });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("lets the caller's own cancellation through as it is", async () => {
    const base = await listen(() => {});
    const controller = new AbortController();
    const call = failureOf(apiFetch(`${base}/x`, { signal: controller.signal }));
    controller.abort();
    expect((await call).name).toBe('AbortError');
  });

  it("sends the Idempotency-Key and reads the server's envelope", async () => {
    let key: string | undefined;
    const base = await listen((request, respond) => {
      key = request.headers['idempotency-key'] as string | undefined;
      respond(409, JSON.stringify({ error: { code: 'conflict', message: 'Ya existe.', fields: { customUrl: ['Ya existe.'] } } }));
    });
    const error = await failureOf(apiFetch(`${base}/api/links`, { method: 'POST', body: '{}', idempotencyKey: 'k-1' }));
    expect(key).toBe('k-1');
    expect(error).toMatchObject({ status: 409, code: 'conflict', message: 'Ya existe.', fields: { customUrl: ['Ya existe.'] } });
  });

  it("reads a proxy's bare 502 as the server being unreachable", async () => {
    const base = await listen((_request, respond) => respond(502, '<html>Bad Gateway</html>'));
    expect(await failureOf(apiFetch(`${base}/api/links`))).toMatchObject({ status: 502, message: networkMessages.unreachable });
  });
});
