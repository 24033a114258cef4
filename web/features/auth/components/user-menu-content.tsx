import { useIsMutating } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { BarLoader } from '../../../components/ui/bar-loader';
import { Button } from '../../../components/ui/button';
import { logoutMutationKey } from '../api/logout';
import { useSession } from '../api/session';

// The dropdown (Radix, popper) is only needed once someone is signed in: keep it out of the
// landing page's first download.
const SignedInMenus = lazy(() => import('./signed-in-menus').then((m) => ({ default: m.SignedInMenus })));

/** 'Iniciar sesión', or the signed-in user's workspace switcher and avatar menu; plus the bar shown while logging out. */
export function UserMenuContent() {
  const { user, isLoading } = useSession();
  const loggingOut = useIsMutating({ mutationKey: logoutMutationKey }) > 0;
  return (
    <>
      {loggingOut && <BarLoader label="Cerrando sesión" className="absolute inset-x-0 bottom-0" />}
      {isLoading ? (
        <span aria-hidden className="block size-9 rounded-full bg-slate-800" />
      ) : user ? (
        <Suspense fallback={<span aria-hidden className="block size-9 rounded-full bg-slate-800" />}>
          <SignedInMenus user={user} />
        </Suspense>
      ) : (
        <Button asChild variant="outline">
          <Link to="/auth">Iniciar sesión</Link>
        </Button>
      )}
    </>
  );
}
