import { lazy, Suspense } from 'react';

// The landing page's first download is on a tight budget (110 kB gzip), and the session query
// and menu are not needed to paint it: they arrive in a chunk of their own.
const UserMenuContent = lazy(() => import('./user-menu-content').then((m) => ({ default: m.UserMenuContent })));

/** The top bar's right end: 'Iniciar sesión', or the signed-in user's avatar menu. */
export function UserMenu() {
  return (
    <Suspense fallback={<span aria-hidden className="block size-9" />}>
      <UserMenuContent />
    </Suspense>
  );
}
