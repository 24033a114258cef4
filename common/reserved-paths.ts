// First path segments that belong to the app, so no short code or custom alias may take them.
// The server routes them to the web app or the API before looking up a link.
export const RESERVED_PATHS = [
  'api',
  'assets',
  'auth',
  'dashboard',
  'cuenta',
  'link',
  'links',
  'storage',
  'login',
  'logout',
  'register',
  'signup',
  'admin',
  'denunciar',
  'invitacion',
  'w',
  'settings',
  'static',
  'public',
  'health',
  'metrics',
  'favicon.svg',
  'favicon.ico',
  'robots.txt',
  'index.html',
] as const;

const reserved = new Set<string>(RESERVED_PATHS);

export function isReservedPath(segment: string): boolean {
  return reserved.has(segment.toLowerCase());
}

/**
 * What the create form's QR preview points at until the server has drawn the link's code. The
 * '~' is neither a letter, a digit, '-' nor '_', so no alias or short code can ever be this path:
 * a printed preview can never be made to lead somewhere by whoever claims it first.
 */
export const QR_PREVIEW_PATH = '~vista-previa';
