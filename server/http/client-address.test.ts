import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { clientAddressReader, compileTrustProxy } from './client-address';

// What proxy-addr reads of a request: the socket's peer and the X-Forwarded-For header.
const request = (peer: string, forwardedFor?: string) =>
  ({ socket: { remoteAddress: peer }, headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {} }) as unknown as IncomingMessage;

const addressWith = (trustProxy: string) => clientAddressReader(compileTrustProxy(loadConfig({ TRUST_PROXY: trustProxy }).trustProxy));

describe('the client address under TRUST_PROXY', () => {
  it('is the socket peer when unset, whatever X-Forwarded-For claims', () => {
    expect(addressWith('')(request('203.0.113.9', '8.8.8.8'))).toBe('203.0.113.9');
  });

  it('is the first forwarded address when every hop is trusted', () => {
    expect(addressWith('true')(request('10.0.0.2', '8.8.8.8, 10.0.0.1'))).toBe('8.8.8.8');
  });

  it('believes as many hops as the count says, nearest first', () => {
    // The proxy (peer) says it got the request from 10.0.0.1, which says it came from 8.8.8.8.
    expect(addressWith('1')(request('10.0.0.2', '8.8.8.8, 10.0.0.1'))).toBe('10.0.0.1');
    expect(addressWith('2')(request('10.0.0.2', '8.8.8.8, 10.0.0.1'))).toBe('8.8.8.8');
  });

  it('believes only the listed proxies, so a client cannot forge its address', () => {
    const behindProxy = addressWith('10.0.0.2');
    expect(behindProxy(request('10.0.0.2', '8.8.8.8'))).toBe('8.8.8.8');
    expect(behindProxy(request('198.51.100.7', '8.8.8.8'))).toBe('198.51.100.7');
  });
});
