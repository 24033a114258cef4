import { describe, expect, it } from 'vitest';
import { authPath, dashboardPath } from './auth-paths';

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
