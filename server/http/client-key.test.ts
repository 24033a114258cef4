import { describe, expect, it } from 'vitest';
import { clientKey } from './client-key';

describe('clientKey', () => {
  it('counts an IPv4 client by its address', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('203.0.113.8')).not.toBe(clientKey('203.0.113.7'));
  });

  it('counts an IPv4-mapped IPv6 address as the IPv4 address it carries', () => {
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('counts every address of one IPv6 /64 as one client, whatever its spelling', () => {
    const key = clientKey('2001:db8:1:2::1');
    expect(clientKey('2001:db8:1:2:ffff:ffff:ffff:fffe')).toBe(key);
    expect(clientKey('2001:0DB8:0001:0002:0:0:0:abcd')).toBe(key);
    expect(key).toBe('2001:db8:1:2::/64');
  });

  it('tells two IPv6 /64s apart', () => {
    expect(clientKey('2001:db8:1:3::1')).not.toBe(clientKey('2001:db8:1:2::1'));
  });

  it('keeps anything that is not an address as it is', () => {
    expect(clientKey('')).toBe('');
  });
});
