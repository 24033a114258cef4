import { NavLink, Outlet } from 'react-router';
import { BarLoader } from '../../components/ui/bar-loader';
import { Alert } from '../../components/ui/alert';
import { cn } from '../../lib/cn';
import { useSession } from '../auth/api/session';

const sections = [
  { to: '/admin/usuarios', label: 'Usuarios' },
  { to: '/admin/links', label: 'Links' },
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
          </NavLink>
        ))}
      </nav>
      <Outlet />
    </div>
  );
}
