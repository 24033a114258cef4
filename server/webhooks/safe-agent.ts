import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isLocalHost } from '../links/destination-policy';

// The agents every delivery goes through. A receiver's name is judged on the addresses it
// resolves to when the connection is made (a name pointing at 127.0.0.1 is refused as 127.0.0.1
// is), so a name changed after the webhook was saved cannot turn Corto against its own network.
// Kept alive: one receiver takes thousands of deliveries over a few connections.

/** The error a refused address fails the connection with. */
export const PRIVATE_ADDRESS = 'ECORTO_PRIVATE_ADDRESS';

function privateAddressError(hostname: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`${hostname} resolves to a private address`);
  error.code = PRIVATE_ADDRESS;
  return error;
}

/** A `lookup` for net.connect that refuses loopback, private, link-local and similar addresses. */
export const refusingLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, options as LookupOptions, (error, address: string | LookupAddress[], family?: number) => {
    if (error) return callback(error, '', 0);
    const all = Array.isArray(address) ? address : [{ address, family: family ?? 4 }];
    if (all.length === 0 || all.some((entry) => isLocalHost(entry.address))) return callback(privateAddressError(hostname), '', 0);
    // Node asks for every address (happy eyeballs) or one, and expects the answer in that shape.
    if (Array.isArray(address)) (callback as unknown as (e: null, list: LookupAddress[]) => void)(null, all);
    else callback(null, all[0]!.address, all[0]!.family);
  });
};

export interface DeliveryAgents {
  http: http.Agent;
  https: https.Agent;
  /** Whether a receiver URL's host, as written, may be connected to (an address literal is never looked up). */
  hostAllowed(hostname: string): boolean;
  close(): void;
}

export function createDeliveryAgents(allowPrivate: boolean): DeliveryAgents {
  const options = { keepAlive: true, maxSockets: 16, ...(allowPrivate ? {} : { lookup: refusingLookup }) };
  const agents = { http: new http.Agent(options), https: new https.Agent(options) };
  return {
    ...agents,
    hostAllowed: (hostname) => allowPrivate || !isLocalHost(hostname),
    close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}
