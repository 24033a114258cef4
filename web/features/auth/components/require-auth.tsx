import { Navigate, Outlet, useLocation } from 'react-router';
import { BarLoader } from '../../../components/ui/bar-loader';
import { useSession } from '../api/session';

/**
 * Guards the signed-in screens: the teal bar while the session loads, /auth when nobody is
 * signed in. The query string (createNew) goes along, so signing in leads back with it.
 */
export function RequireAuth() {
  const { isLoading, isAuthenticated } = useSession();
  const location = useLocation();
  if (isLoading) return <BarLoader label="Cargando sesión" />;
  if (!isAuthenticated) return <Navigate to={`/auth${location.search}`} replace />;
  return <Outlet />;
}
