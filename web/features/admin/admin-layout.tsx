import { useEffect } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router';
import { BarLoader } from '../../components/ui/bar-loader';
import { Alert } from '../../components/ui/alert';
import { cn } from '../../lib/cn';
import { formatNumber } from '../../lib/format';
import { useSession } from '../auth/api/session';
import { useOpenReportsCount } from './api/admin-api';

const sections = [
  { to: '/admin/usuarios', label: 'Usuarios' },
  { to: '/admin/links', label: 'Links' },
  { to: '/admin/espacios', label: 'Espacios' },
  { to: '/admin/dominios', label: 'Dominios' },
  { to: '/admin/denuncias', label: 'Denuncias' },
  { to: '/admin/ajustes', label: 'Ajustes' },
  { to: '/admin/registro', label: 'Registro' },
];

/** The operator's screens (inside RequireAuth): a tab bar, and a refusal for anyone not an admin. */
export function AdminLayout() {
  const { user, isLoading } = useSession();
  if (isLoading) return <BarLoader label="Cargando sesión" />;
  if (user?.role !== 'admin') {
    return (
      <section className="mx-auto max-w-xl py-12">
        <h1 className="text-2xl font-bold">Administración</h1>
        <Alert className="mt-4">No tienes permiso para ver esta página.</Alert>
      </section>
    );
  }
  return <AdminScreens />;
}

/** The tab bar ('Denuncias' with the count of open reports) and the section. */
function AdminScreens() {
  const count = useOpenReportsCount();
  const openReports = count.data ?? 0;
  // Read again on every move between the sections: reports arrive while the admin works.
  const { pathname } = useLocation();
  const { refetch } = count;
  useEffect(() => {
    void refetch();
  }, [pathname, refetch]);
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-3xl font-bold tracking-tight">Administración</h1>
      <nav aria-label="Administración" className="flex flex-wrap gap-2 border-b border-slate-800 pb-2">
        {sections.map((section) => (
          <NavLink
            key={section.to}
            to={section.to}
            className={({ isActive }) =>
              cn('rounded-md px-3 py-1.5 text-sm font-medium', isActive ? 'bg-teal-500/20 text-teal-200' : 'text-slate-300 hover:text-white')
            }
          >
            {section.label}
            {section.to === '/admin/denuncias' && openReports > 0 && (
              <>
                {' '}
                <span className="ml-1 rounded-full bg-amber-300 px-1.5 py-0.5 text-xs font-semibold text-slate-950">{formatNumber(openReports)}</span>
                <span className="sr-only">{openReports === 1 ? ' abierta' : ' abiertas'}</span>
              </>
            )}
          </NavLink>
        ))}
      </nav>
      <Outlet />
    </div>
  );
}
