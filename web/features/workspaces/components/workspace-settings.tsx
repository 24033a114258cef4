import { deleteWorkspaceSchema, type Workspace } from '@common/workspaces/workspace-schemas';
import { workspaceMessages } from '@common/workspaces/workspace-messages';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { messageOf } from '../../../api/client';
import { applyServerFields } from '../../../components/form/apply-server-fields';
import { FormAlert } from '../../../components/form/form-alert';
import { FormField } from '../../../components/form/form-field';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '../../../components/ui/dialog';
import { toast } from '../../../components/ui/toaster';
import { useDeleteWorkspace, useUpdateWorkspace } from '../api/workspaces';
import { workspaceMembersPath } from '../workspace-path';
import { workspaceFormSchema, type WorkspaceFormValues } from './workspace-form-schema';

/** Rename the workspace or change its slug (owners only); the address follows a new slug. */
export function WorkspaceSettingsForm({ workspace }: { workspace: Workspace }) {
  const navigate = useNavigate();
  const update = useUpdateWorkspace();
  const form = useForm<WorkspaceFormValues>({
    resolver: zodResolver(workspaceFormSchema),
    criteriaMode: 'all',
    values: { name: workspace.name, slug: workspace.slug },
  });
  const { errors } = form.formState;
  const submit = form.handleSubmit(({ name, slug }) => {
    const changes = { ...(name !== workspace.name ? { name } : {}), ...(slug && slug !== workspace.slug ? { slug } : {}) };
    if (Object.keys(changes).length === 0) return void toast('No has cambiado nada.', 'info');
    update.mutate(
      { slug: workspace.slug, changes },
      {
        onSuccess: (saved) => {
          toast(saved.slug !== workspace.slug ? `Guardado. La dirección del espacio es ahora /w/${saved.slug}.` : 'Guardado.', 'success');
          if (saved.slug !== workspace.slug) navigate(workspaceMembersPath(saved.slug), { replace: true });
        },
        onError: (error) => {
          applyServerFields(error, form.setError, ['name', 'slug']);
          form.setError('root.server', { message: messageOf(error) });
        },
      },
    );
  });
  return (
    <form noValidate onSubmit={submit} className="grid gap-4" aria-label="Ajustes del espacio">
      <FormField id="settings-name" label="Nombre" autoComplete="off" error={errors.name} {...form.register('name')} />
      <div className="grid gap-2">
        <FormField id="settings-slug" label="Identificador" autoComplete="off" autoCapitalize="none" spellCheck={false} error={errors.slug} {...form.register('slug')} />
        <p className="text-sm text-slate-400">Cambiarlo cambia la dirección del espacio: las direcciones antiguas dejarán de abrirlo. Los enlaces cortos no cambian.</p>
      </div>
      <FormAlert message={errors.root?.server?.message} />
      <div>
        <Button type="submit" loading={update.isPending}>
          Guardar cambios
        </Button>
      </div>
    </form>
  );
}

type DeleteValues = z.input<typeof deleteWorkspaceSchema>;

/** «Eliminar el espacio»: asks for the password; its links stop at once. */
export function DeleteWorkspaceButton({ workspace }: { workspace: Workspace }) {
  const navigate = useNavigate();
  const removal = useDeleteWorkspace();
  const form = useForm<DeleteValues>({ resolver: zodResolver(deleteWorkspaceSchema), defaultValues: { password: '' } });
  const submit = form.handleSubmit(({ password }) =>
    removal.mutate(
      { slug: workspace.slug, password },
      {
        onSuccess: () => {
          navigate('/dashboard', { replace: true });
          toast(`«${workspace.name}»: ${workspaceMessages.deleted}`, 'success');
        },
        onError: (error) => {
          applyServerFields(error, form.setError, ['password']);
          if (!form.getFieldState('password').error) form.setError('root.server', { message: messageOf(error) });
        },
      },
    ),
  );
  return (
    <Dialog onOpenChange={(open) => (open ? undefined : (form.reset(), removal.reset()))}>
      <DialogTrigger asChild>
        <Button variant="destructive">Eliminar el espacio</Button>
      </DialogTrigger>
      <DialogContent dismissible={!removal.isPending}>
        <DialogHeader>
          <DialogTitle>¿Eliminar «{workspace.name}»?</DialogTitle>
          <DialogDescription>
            Todos sus enlaces dejarán de funcionar al momento y se borrarán sus estadísticas, para todos sus miembros. No se puede deshacer. Escribe tu contraseña para confirmar.
          </DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={submit} className="grid gap-4">
          <FormField id="workspace-delete-password" label="Contraseña" type="password" autoComplete="current-password" error={form.formState.errors.password} {...form.register('password')} />
          <FormAlert message={form.formState.errors.root?.server?.message} />
          <DialogFooter>
            <Button type="submit" variant="destructive" loading={removal.isPending}>
              Eliminar definitivamente
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
