import { Navigate, Outlet, useLocation } from 'react-router';
import { BarLoader } from '../../../components/ui/bar-loader';
import { useSession } from '../api/session';
import { authPathFrom } from '../auth-paths';

/**
 * Guards the signed-in screens: the teal bar while the session loads, /auth when nobody is
 * signed in (or the session ends: any 401 forgets the user). Where they were goes along
 * (createNew, or the screen itself), so signing in leads back there.
 */
export function RequireAuth() {
  const { isLoading, isAuthenticated } = useSession();
  const location = useLocation();
  if (isLoading) return <BarLoader label="Cargando sesión" />;
  if (!isAuthenticated) return <Navigate to={authPathFrom(location)} replace />;
  return <Outlet />;
}
