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

/**
 * TRUST_PROXY=true believes every hop, the client's own X-Forwarded-For included: anyone who reaches
 * Corto without the proxy picks the address every per-client limit counts. Said once at start.
 */
export const TRUST_EVERY_PROXY_WARNING =
  'TRUST_PROXY=true believes every X-Forwarded-For, so any client that reaches this server directly can forge its address and slip past every per-address limit; set a hop count (e.g. TRUST_PROXY=1) or the proxy\'s address instead';

/** The visitor's address: the socket's peer, or with a trusted proxy the address it forwarded. */
export function clientAddressReader(trust: TrustProxy | false): (request: IncomingMessage) => string {
  if (!trust) return (request) => request.socket.remoteAddress ?? '';
  return (request) => proxyAddr(request, trust);
}
