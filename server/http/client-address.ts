import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';

/** Which hops may be believed when they pass on the client's address in X-Forwarded-For. */
export type TrustProxy = (address: string, hop: number) => boolean;

/**
 * TRUST_PROXY as one function, given to Fastify and used by the redirect fast path alike, so both
 * see the same client. A hop count trusts that many hops nearest the server (proxy-addr's rule).
 */
export function compileTrustProxy(setting: boolean | number | string[]): TrustProxy | false {
  if (setting === false) return false;
  if (setting === true) return () => true;
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return proxyAddr.compile(setting);
}

/** The visitor's address: the socket's peer, or with a trusted proxy the address it forwarded. */
export function clientAddressReader(trust: TrustProxy | false): (request: IncomingMessage) => string {
  if (!trust) return (request) => request.socket.remoteAddress ?? '';
  return (request) => proxyAddr(request, trust);
}
