import { describe, expect, it } from 'vitest';
import { withWorkspace, workspaceActivityPath, workspaceDomainsPath, workspaceHomePath, workspaceLinkPath, workspaceMembersPath } from './workspace-path';

describe('withWorkspace', () => {
  it('leaves every path of the personal workspace as it was', () => {
    expect(withWorkspace('/api/links?limit=50', null)).toBe('/api/links?limit=50');
    expect(withWorkspace('/api/tags', null)).toBe('/api/tags');
  });

  it('starts the query string when the path has none', () => {
    expect(withWorkspace('/api/tags', 'marketing')).toBe('/api/tags?workspace=marketing');
  });

  it('adds to a query string already there', () => {
    expect(withWorkspace('/api/links?limit=50&q=a', 'marketing')).toBe('/api/links?limit=50&q=a&workspace=marketing');
    expect(withWorkspace('/api/links?', 'marketing')).toBe('/api/links?workspace=marketing');
  });

  it('keeps a fragment at the end', () => {
    expect(withWorkspace('/api/links/7/qr?size=300#x', 'ventas')).toBe('/api/links/7/qr?size=300&workspace=ventas#x');
  });

  it('encodes the slug', () => {
    expect(withWorkspace('/api/tags', 'a&b')).toBe('/api/tags?workspace=a%26b');
  });
});

describe('workspace addresses', () => {
  it('names the personal workspace by /dashboard and any other by /w/{slug}', () => {
    expect(workspaceHomePath(null)).toBe('/dashboard');
    expect(workspaceHomePath('marketing')).toBe('/w/marketing');
  });

  it('keeps a link’s detail inside its workspace', () => {
    expect(workspaceLinkPath(null, 12)).toBe('/link/12');
    expect(workspaceLinkPath('marketing', 12)).toBe('/w/marketing/link/12');
  });

  it('has a members and an activity page under the workspace', () => {
    expect(workspaceMembersPath('marketing')).toBe('/w/marketing/miembros');
    expect(workspaceActivityPath('marketing')).toBe('/w/marketing/actividad');
  });

  it('has a domains page under the workspace, the personal one’s under the account like its tokens', () => {
    expect(workspaceDomainsPath('marketing')).toBe('/w/marketing/dominios');
    expect(workspaceDomainsPath(null)).toBe('/cuenta/dominios');
  });
});
