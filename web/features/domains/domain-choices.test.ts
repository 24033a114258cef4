import type { Domain, DomainList } from '@common/domains/domain-schemas';
import { describe, expect, it } from 'vitest';
import { domainFilterOptions, domainState, linkDomainOf, linkDomainOptions, readableHost, shortAddressBase } from './domain-choices';

const domain = (id: number, hostname: string, displayHostname: string, state: Partial<Pick<Domain, 'verified' | 'disabled'>> = {}): Domain => ({
  id,
  hostname,
  displayHostname,
  verified: state.verified ?? true,
  verifiedAt: state.verified === false ? null : '2026-11-26T10:00:00.000Z',
  verification: { type: 'TXT', name: `_corto-challenge.${hostname}`, value: 'corto-verify=1' },
  rootRedirect: null,
  notFoundRedirect: null,
  disabled: state.disabled ?? false,
  links: 0,
  createdAt: '2026-11-26T10:00:00.000Z',
});

const list: DomainList = {
  instanceHost: 'corto.example',
  limit: 10,
  domains: [
    domain(1, 'go.empresa.es', 'go.empresa.es'),
    domain(2, 'xn--espaa-rta.es', 'españa.es'),
    domain(3, 'pendiente.es', 'pendiente.es', { verified: false }),
    domain(4, 'cerrado.es', 'cerrado.es', { disabled: true }),
  ],
};

describe('a domain state', () => {
  it('is the operator’s disabling first, then whether the TXT record was found', () => {
    expect(domainState({ verified: true, disabled: true })).toBe('disabled');
    expect(domainState({ verified: false, disabled: true })).toBe('disabled');
    expect(domainState({ verified: true, disabled: false })).toBe('verified');
    expect(domainState({ verified: false, disabled: false })).toBe('pending');
  });
});

describe('the «Dominio» select of the link forms', () => {
  it('offers the instance’s own host first, then only the verified domains not disabled, in Unicode', () => {
    expect(linkDomainOptions(list)).toEqual([
      { value: '', label: 'corto.example' },
      { value: 'go.empresa.es', label: 'go.empresa.es' },
      { value: 'xn--espaa-rta.es', label: 'españa.es' },
    ]);
  });

  it('is not there while the list has not arrived, or with nothing to choose between', () => {
    expect(linkDomainOptions(undefined)).toEqual([]);
    expect(linkDomainOptions({ ...list, domains: [list.domains[2]!, list.domains[3]!] })).toEqual([]);
  });

  it('keeps a link’s current domain chosen when it no longer qualifies, saying why', () => {
    const options = linkDomainOptions({ ...list, domains: [list.domains[3]!] }, 'cerrado.es');
    expect(options).toEqual([
      { value: '', label: 'corto.example' },
      { value: 'cerrado.es', label: 'cerrado.es (desactivado por el administrador)' },
    ]);
    expect(linkDomainOptions({ ...list, domains: [] }, 'xn--espaa-rta.es').at(-1)).toEqual({ value: 'xn--espaa-rta.es', label: 'españa.es (ya no está en el espacio)' });
  });
});

describe('the dashboard filter by domain', () => {
  it('shows only when the workspace has domains, the instance’s own host as an option too', () => {
    expect(domainFilterOptions({ ...list, domains: [] })).toEqual([]);
    expect(domainFilterOptions(undefined)).toEqual([]);
    expect(domainFilterOptions(list).map((option) => option.value)).toEqual(['corto.example', 'go.empresa.es', 'xn--espaa-rta.es', 'pendiente.es', 'cerrado.es']);
  });
});

describe('addresses', () => {
  it('start at https://{domain} on a domain, at PUBLIC_BASE_URL otherwise', () => {
    expect(shortAddressBase('http://localhost:3000', 'go.empresa.es')).toBe('https://go.empresa.es');
    expect(shortAddressBase('http://localhost:3000', '')).toBe('http://localhost:3000');
    expect(shortAddressBase('http://localhost:3000', null)).toBe('http://localhost:3000');
  });

  it('show hosts in Unicode, with their port', () => {
    expect(readableHost('xn--espaa-rta.es')).toBe('españa.es');
    expect(readableHost('localhost:3000')).toBe('localhost:3000');
  });

  it('read a link’s domain whether the server sends it or not', () => {
    expect(linkDomainOf({ domain: 'go.empresa.es' })).toBe('go.empresa.es');
    expect(linkDomainOf({ domain: null })).toBeNull();
    expect(linkDomainOf({})).toBeNull();
  });
});
