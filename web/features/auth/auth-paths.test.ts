import { describe, expect, it } from 'vitest';
import { afterSignInPath, authPath, authPathFrom, dashboardPath } from './auth-paths';

describe('createNew on the way to the dashboard', () => {
  it('is carried, encoded, and read back unchanged', () => {
    const longUrl = 'https://ejemplo.com/a b?x=1&y=ñ#fin';
    const path = dashboardPath(longUrl);
    expect(path.startsWith('/dashboard?createNew=')).toBe(true);
    expect(new URL(path, 'http://corto.test').searchParams.get('createNew')).toBe(longUrl);
    expect(new URL(authPath(longUrl), 'http://corto.test').pathname).toBe('/auth');
  });

  it('is left out when there is none', () => {
    expect(dashboardPath(null)).toBe('/dashboard');
  });
});

describe('where a signed-out visitor was going', () => {
  const back = (location: { pathname: string; search: string }) =>
    afterSignInPath(new URL(authPathFrom(location), 'http://corto.test').searchParams);

  it('goes to /auth and, after signing in, back to the same screen', () => {
    expect(authPathFrom({ pathname: '/link/42', search: '' })).toBe('/auth?next=%2Flink%2F42');
    expect(back({ pathname: '/link/42', search: '?x=1' })).toBe('/link/42?x=1');
  });

  it('keeps the dashboard’s createNew as it always did', () => {
    expect(authPathFrom({ pathname: '/dashboard', search: '?createNew=https%3A%2F%2Fa.example' })).toBe(
      '/auth?createNew=https%3A%2F%2Fa.example',
    );
    expect(back({ pathname: '/dashboard', search: '' })).toBe('/dashboard');
  });

  it('keeps a filtered dashboard whole (state, tag, sort)', () => {
    const search = '?status=paused&tag=Verano&sort=clicks';
    expect(authPathFrom({ pathname: '/dashboard', search })).toBe(`/auth?next=${encodeURIComponent(`/dashboard${search}`)}`);
    expect(back({ pathname: '/dashboard', search })).toBe(`/dashboard${search}`);
  });

  it('never leaves the site, whatever next says', () => {
    for (const next of ['//evil.example/x', '/\\evil.example', 'https://evil.example', 'javascript:alert(1)']) {
      expect(afterSignInPath(new URLSearchParams({ next }))).toBe('/dashboard');
    }
  });
});
