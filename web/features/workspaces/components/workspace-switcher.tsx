import type { User } from '@common/auth/auth-schemas';
import { roleLabels } from '@common/workspaces/workspace-roles';
import { Check, ChevronsUpDown, Plus, UserRound, Users } from 'lucide-react';
import { lazy, Suspense, useRef, useState } from 'react';
import { Link, matchPath, useLocation } from 'react-router';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuGroup,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../../../components/ui/dropdown-menu';
import { useWorkspaces } from '../api/workspaces';
import { workspaceHomePath } from '../workspace-path';

// The form (zod, react-hook-form) is fetched when «Crear equipo» is first chosen, not with the top bar.
const CreateWorkspaceDialog = lazy(() => import('./create-workspace-dialog').then((m) => ({ default: m.CreateWorkspaceDialog })));

/** The slug the address names (/w/{slug}/...), or null on every other screen (the personal workspace's). */
function slugInAddress(pathname: string): string | null {
  return matchPath({ path: '/w/:slug', end: false }, pathname)?.params.slug?.toLowerCase() ?? null;
}

/**
 * The top bar's workspace menu: the personal workspace first (named after the user), then the
 * teams, then «Crear equipo». A menu button: arrows move, Enter opens, Escape closes.
 */
export function WorkspaceSwitcher({ user }: { user: User }) {
  const { pathname } = useLocation();
  const workspaces = useWorkspaces().data ?? [];
  const trigger = useRef<HTMLButtonElement>(null);
  const [creating, setCreating] = useState(false);
  const [createWanted, setCreateWanted] = useState(false);
  const addressed = slugInAddress(pathname);
  const personal = workspaces.find((workspace) => workspace.personal);
  const teams = workspaces.filter((workspace) => !workspace.personal);
  const current = workspaces.find((workspace) => workspace.slug === addressed) ?? personal;
  const currentName = current && !current.personal ? current.name : user.name;
  const isCurrent = (slug: string | undefined) => (current?.slug ?? null) === (slug ?? null);

  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger
          ref={trigger}
          aria-label={`Espacio de trabajo: ${currentName}. Cambiar de espacio`}
          className="flex h-9 max-w-[11rem] min-w-0 items-center gap-2 rounded-lg border border-slate-700 px-2.5 text-sm font-medium text-slate-100 hover:border-slate-500 hover:bg-slate-800/60 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-teal-300 sm:max-w-xs"
        >
          {current && !current.personal ? <Users aria-hidden className="size-4 shrink-0" /> : <UserRound aria-hidden className="size-4 shrink-0" />}
          <span className="truncate">{currentName}</span>
          <ChevronsUpDown aria-hidden className="size-4 shrink-0 text-slate-400" />
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end" className="w-72 max-w-[calc(100vw-2rem)]">
          <DropdownMenuLabel className="text-xs font-medium text-slate-400">Espacios de trabajo</DropdownMenuLabel>
          <DropdownMenuGroup>
            <DropdownMenuItem asChild>
              <Link to="/dashboard" aria-current={isCurrent(personal?.slug) ? 'page' : undefined}>
                <UserRound aria-hidden />
                <span className="min-w-0 flex-1 truncate">{user.name}</span>
                <span className="text-xs text-slate-400">Personal</span>
                {isCurrent(personal?.slug) && <Check aria-hidden className="text-teal-300" />}
              </Link>
            </DropdownMenuItem>
            {teams.map((team) => (
              <DropdownMenuItem key={team.slug} asChild>
                <Link to={workspaceHomePath(team.slug)} aria-current={isCurrent(team.slug) ? 'page' : undefined}>
                  <Users aria-hidden />
                  <span className="min-w-0 flex-1 truncate">{team.name}</span>
                  <span className="text-xs text-slate-400">{roleLabels[team.role]}</span>
                  {isCurrent(team.slug) && <Check aria-hidden className="text-teal-300" />}
                </Link>
              </DropdownMenuItem>
            ))}
          </DropdownMenuGroup>
          <DropdownMenuSeparator />
          <DropdownMenuItem
            onSelect={() => {
              setCreateWanted(true);
              setCreating(true);
            }}
          >
            <Plus aria-hidden />
            Crear equipo
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      {createWanted && (
        <Suspense fallback={null}>
          <CreateWorkspaceDialog open={creating} onOpenChange={setCreating} returnFocusTo={trigger} />
        </Suspense>
      )}
    </>
  );
}
