import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger, FastifyServerFactory } from 'fastify';

/** The options Fastify hands a server factory, as far as a plain HTTP/1 server uses them. */
interface ServerOptions {
  http?: http.ServerOptions;
  keepAliveTimeout?: number;
  requestTimeout?: number;
  connectionTimeout?: number;
  maxRequestsPerSocket?: number;
}

/**
 * Node looks for requests past their headers or request timeout every connectionsCheckingInterval
 * (30 s by default, which would let a 30 s headers timeout stretch to a minute): a quarter of the
 * shorter timeout, within 50 ms to 1 s. Each check only walks the requests still arriving.
 */
function withTimeoutChecks(options: http.ServerOptions): http.ServerOptions {
  const timeouts = [options.headersTimeout, options.requestTimeout].filter((ms): ms is number => ms !== undefined && ms > 0);
  if (options.connectionsCheckingInterval !== undefined || timeouts.length === 0) return options;
  const interval = Math.min(1000, Math.max(50, Math.floor(Math.min(...timeouts) / 4)));
  return { ...options, connectionsCheckingInterval: interval };
}

/** Answers a request itself and returns true, or returns false to leave it to Fastify. */
export type FrontHandler = (request: IncomingMessage, response: ServerResponse) => boolean;

/** Answers a request Node's parser refused and destroys the socket, or leaves it to Fastify's handler. */
export type ClientErrorHandler = (error: Error, socket: Socket) => void;

/**
 * Node's HTTP server as Fastify makes it (same options and timeouts), with `front` offered each
 * request before Fastify's router. `front` is read per request, so it may be set after the app is
 * built. A front handler that throws before answering leaves the request to Fastify.
 */
export function serverFactoryWith(
  front: () => FrontHandler | undefined,
  log: () => FastifyBaseLogger,
  clientError?: ClientErrorHandler,
): FastifyServerFactory {
  return (fastifyHandler, rawOptions) => {
    const options = rawOptions as ServerOptions;
    const server = http.createServer(withTimeoutChecks(options.http ?? {}), (request, response) => {
      let answered = false;
      try {
        answered = front()?.(request, response) ?? false;
      } catch (error) {
        log().error({ err: error }, 'front handler failed; the request goes to Fastify');
        answered = response.headersSent;
      }
      if (!answered) fastifyHandler(request, response);
    });
    // Before Fastify's own listener (added once the factory returns), which skips a destroyed socket.
    if (clientError) server.on('clientError', clientError);
    // What Fastify sets on a server it makes itself.
    if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
    if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
    if (options.connectionTimeout !== undefined) server.setTimeout(options.connectionTimeout);
    if (options.maxRequestsPerSocket) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
    return server;
  };
}
