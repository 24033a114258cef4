import type { Socket } from 'node:net';

// A browser percent-encodes 'Ñ' in a request line; curl, some QR readers and scripts send the
// raw UTF-8 bytes, which HTTP does not allow there, and Node's parser refuses the request (400)
// before any route sees it. For a GET or HEAD of a single path segment such as '/Ñoquis' the
// client gets a 301 to the same path percent-encoded instead, which the redirect then answers
// like any other visit (so the click is counted once, on that second request).

const REQUEST_LINE = /^(GET|HEAD) (\/[^\s]*) HTTP\/1\.[01]\r?\n/;
// One segment and an optional query: never '//host' (another site) or a path with '\'.
const ONE_SEGMENT = /^\/[^/?#\\]+(\?[^#]*)?$/u;
const CONTROL = /[\p{Cc}\p{Cf}\p{Z}]/u;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The percent-encoded request target for a raw UTF-8 one, or undefined when it is not worth saving. */
export function encodedTarget(rawTarget: Buffer): string | undefined {
  let target: string;
  try {
    target = utf8.decode(rawTarget);
  } catch {
    return undefined;
  }
  if (!ONE_SEGMENT.test(target) || CONTROL.test(target)) return undefined;
  // Only what HTTP refuses is encoded; '%XX' escapes and ASCII stay as they were.
  return target.replace(/[^\x21-\x7e]/gu, (character) => encodeURIComponent(character));
}

interface ParserError extends Error {
  code?: string;
  rawPacket?: Buffer;
}

/**
 * For a server's 'clientError' listener placed before Fastify's: answers a request refused only
 * for raw UTF-8 in its path with a 301 to the encoded path and returns true (the socket is then
 * destroyed, so Fastify's own listener leaves it alone); false leaves the error to Fastify.
 */
export function redirectRawUtf8Path(error: ParserError, socket: Socket): boolean {
  if (error.code !== 'HPE_INVALID_URL' || !error.rawPacket || socket.destroyed || !socket.writable) return false;
  const line = REQUEST_LINE.exec(error.rawPacket.toString('latin1'));
  if (!line) return false;
  const location = encodedTarget(Buffer.from(line[2]!, 'latin1'));
  if (!location) return false;
  socket.write(
    `HTTP/1.1 301 Moved Permanently\r\nLocation: ${location}\r\nContent-Length: 0\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n`,
  );
  socket.destroy();
  return true;
}
