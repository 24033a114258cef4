import { roleLabels, roleMayAssign, workspaceRoles, type WorkspaceRole } from '@common/workspaces/workspace-roles';
import type { ComponentProps } from 'react';
import { cn } from '../../../lib/cn';

export const selectClass =
  'h-10 rounded-lg border border-slate-700 bg-slate-900 px-3 text-sm text-slate-100 focus-visible:outline-2 focus-visible:outline-teal-400/60 disabled:opacity-60';

/** The roles `callerRole` may give, from the least: an admin never offers «Propietario». */
export function assignableRoles(callerRole: WorkspaceRole): WorkspaceRole[] {
  return workspaceRoles.filter((role) => roleMayAssign(callerRole, role));
}

type RoleSelectProps = Omit<ComponentProps<'select'>, 'children'> & { callerRole: WorkspaceRole; current?: WorkspaceRole };

/** A select of the roles the caller may give (plus the current one, shown even when it may not be given; alone when disabled). */
export function RoleSelect({ callerRole, current, className, ...props }: RoleSelectProps) {
  const roles = props.disabled && current ? [current] : assignableRoles(callerRole);
  const shown = current && !roles.includes(current) ? [...roles, current] : roles;
  return (
    <select className={cn(selectClass, className)} {...props}>
      {shown.map((role) => (
        <option key={role} value={role}>
          {roleLabels[role]}
        </option>
      ))}
    </select>
  );
}
