import { roleMay } from '@common/workspaces/workspace-roles';
import { workspaceMessages } from '@common/workspaces/workspace-messages';
import { Fragment } from 'react';
import { Link, NavLink, Outlet, useParams } from 'react-router';
import { messageOf } from '../../api/client';
import { Alert } from '../../components/ui/alert';
import { BarLoader } from '../../components/ui/bar-loader';
import { buttonVariants } from '../../components/ui/button';
import { cn } from '../../lib/cn';
import { useWorkspaces } from './api/workspaces';
import { CurrentWorkspaceProvider } from './current-workspace';
import { workspaceActivityPath, workspaceDomainsPath, workspaceHomePath, workspaceMembersPath, workspaceWebhooksPath } from './workspace-path';

/**
 * /w/{slug}/...: the screens of one workspace. Finds it among the caller's workspaces (asked again
 * on arrival, so a workspace joined a moment ago is there) and provides it to the screens under
 * it, which then act in it (?workspace=) and show what the caller's role there allows.
 */
export function WorkspaceLayout() {
  const slug = (useParams().slug ?? '').toLowerCase();
  const workspaces = useWorkspaces();
  const workspace = workspaces.data?.find((known) => known.slug === slug);

  if (!workspace && (workspaces.isPending || workspaces.isFetching)) return <BarLoader label="Cargando el espacio de trabajo" />;
  if (!workspace) {
    return (
      <section className="mx-auto flex max-w-xl flex-col items-center gap-4 py-12 text-center">
        <h1 className="text-2xl font-bold tracking-tight">{workspaceMessages.notFound}</h1>
        {workspaces.isError ? (
          <Alert>{messageOf(workspaces.error)}</Alert>
        ) : (
          <p className="text-slate-300">No existe o no eres miembro de él. Si te han invitado, abre el enlace de la invitación.</p>
        )}
        <Link to="/dashboard" className={buttonVariants()}>
          Ir a mis links
        </Link>
      </section>
    );
  }
  return (
    <CurrentWorkspaceProvider workspace={workspace}>
      {!workspace.personal && <WorkspaceNav slug={workspace.slug} manages={roleMay(workspace.role, 'manage')} />}
      {/* Another workspace is another screen: nothing selected or typed in one carries over. */}
      <Fragment key={workspace.slug}>
        <Outlet />
      </Fragment>
    </CurrentWorkspaceProvider>
  );
}

const tabClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    'rounded-md px-2.5 py-1.5 text-sm sm:px-3 font-medium whitespace-nowrap text-slate-300 hover:bg-slate-800 hover:text-white focus-visible:outline-2 focus-visible:outline-teal-300',
    isActive && 'bg-slate-800 text-white',
  );

/** A team workspace's pages: its links, its members, what happened in it, its tokens and domains (and webhooks, for its admins). */
function WorkspaceNav({ slug, manages }: { slug: string; manages: boolean }) {
  return (
    // Five tabs are wider than a 375 px phone: they wrap to a second row there rather than hide sideways.
    <nav aria-label="Espacio de trabajo" className="mb-6 -mt-2 flex flex-wrap gap-1 border-b border-slate-800 pb-2 sm:-mt-4">
      <NavLink to={workspaceHomePath(slug)} end className={tabClass}>
        Enlaces
      </NavLink>
      <NavLink to={workspaceMembersPath(slug)} className={tabClass}>
        Miembros
      </NavLink>
      <NavLink to={workspaceActivityPath(slug)} className={tabClass}>
        Actividad
      </NavLink>
      <NavLink to={`${workspaceHomePath(slug)}/tokens`} className={tabClass}>
        {/* The short word on a phone, where the tabs take two rows as it is. */}
        <span className="sm:hidden">Tokens</span>
        <span className="hidden sm:inline">Tokens de API</span>
      </NavLink>
      <NavLink to={workspaceDomainsPath(slug)} className={tabClass}>
        Dominios
      </NavLink>
      {manages && (
        <NavLink to={workspaceWebhooksPath(slug)} className={tabClass}>
          Webhooks
        </NavLink>
      )}
    </nav>
  );
}
