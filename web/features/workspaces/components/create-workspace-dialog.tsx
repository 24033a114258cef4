import { zodResolver } from '@hookform/resolvers/zod';
import type { RefObject } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { messageOf } from '../../../api/client';
import { applyServerFields } from '../../../components/form/apply-server-fields';
import { FormAlert } from '../../../components/form/form-alert';
import { FormField } from '../../../components/form/form-field';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../../components/ui/dialog';
import { toast } from '../../../components/ui/toaster';
import { useCreateWorkspace } from '../api/workspaces';
import { workspaceHomePath } from '../workspace-path';
import { previewSlug, workspaceFormSchema, type WorkspaceFormValues } from './workspace-form-schema';

type CreateWorkspaceDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Opened from the switcher's menu, which is gone by the time the dialog closes. */
  returnFocusTo: RefObject<HTMLElement | null>;
};

/** «Crear equipo»: a name and, if wanted, the slug of its address; then on to the new workspace. */
export function CreateWorkspaceDialog({ open, onOpenChange, returnFocusTo }: CreateWorkspaceDialogProps) {
  const creation = useCreateWorkspace();
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) creation.reset();
        onOpenChange(next);
      }}
    >
      <DialogContent returnFocusTo={returnFocusTo} dismissible={!creation.isPending}>
        <DialogHeader>
          <DialogTitle>Crear equipo</DialogTitle>
          <DialogDescription>
            Un espacio de trabajo compartido: sus enlaces son del equipo, no de quien los creó. Luego podrás invitar a otras personas.
          </DialogDescription>
        </DialogHeader>
        {open && <CreateWorkspaceForm creation={creation} onDone={() => onOpenChange(false)} />}
      </DialogContent>
    </Dialog>
  );
}

function CreateWorkspaceForm({ creation, onDone }: { creation: ReturnType<typeof useCreateWorkspace>; onDone: () => void }) {
  const navigate = useNavigate();
  const form = useForm<WorkspaceFormValues>({ resolver: zodResolver(workspaceFormSchema), criteriaMode: 'all', defaultValues: { name: '', slug: '' } });
  const { errors } = form.formState;
  const [name, typedSlug] = useWatch({ control: form.control, name: ['name', 'slug'] });
  const slug = previewSlug({ name, slug: typedSlug });
  const submit = form.handleSubmit(({ name, slug: typed }) => {
    creation.mutate(
      { name, ...(typed ? { slug: typed } : {}) },
      {
        onSuccess: (workspace) => {
          toast(`Equipo «${workspace.name}» creado. Ya puedes invitar a otras personas.`, 'success');
          onDone();
          navigate(workspaceHomePath(workspace.slug));
        },
        onError: (error) => {
          applyServerFields(error, form.setError, ['name', 'slug']);
          form.setError('root.server', { message: messageOf(error) });
        },
      },
    );
  });
  return (
    <form noValidate onSubmit={submit} className="grid gap-4" aria-label="Crear equipo">
      <FormField id="workspace-name" label="Nombre" placeholder="p. ej. Marketing" autoComplete="off" error={errors.name} {...form.register('name')} />
      <div className="grid gap-2">
        <FormField
          id="workspace-slug"
          label="Identificador (opcional)"
          placeholder={slug || 'marketing'}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          error={errors.slug}
          {...form.register('slug')}
        />
        <p className="text-sm break-all text-slate-400" aria-live="polite">
          {slug ? (
            <>
              Dirección: <span className="text-teal-300">{`${window.location.host}${workspaceHomePath(slug)}`}</span>
            </>
          ) : (
            'Letras minúsculas, números y guiones; si lo dejas vacío, se forma a partir del nombre.'
          )}
        </p>
      </div>
      <FormAlert message={errors.root?.server?.message} />
      <DialogFooter>
        <Button type="submit" loading={creation.isPending}>
          Crear equipo
        </Button>
      </DialogFooter>
    </form>
  );
}
