import { type Domain, updateDomainSchema, type UpdateDomainInput } from '@common/domains/domain-schemas';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { ApiError, messageOf } from '../../../api/client';
import { applyServerFields } from '../../../components/form/apply-server-fields';
import { FormAlert } from '../../../components/form/form-alert';
import { FormField } from '../../../components/form/form-field';
import { Button } from '../../../components/ui/button';
import { toast } from '../../../components/ui/toaster';
import { useUpdateDomain } from '../api/domains';

type Values = UpdateDomainInput;
const fields = ['rootRedirect', 'notFoundRedirect'] as const;

/** Where the domain sends visitors who open it with no code, or with one it does not know; empty: Corto's page. */
export function RedirectsForm({ domain }: { domain: Domain }) {
  const update = useUpdateDomain();
  const form = useForm<Values, unknown, z.output<typeof updateDomainSchema>>({
    resolver: zodResolver(updateDomainSchema),
    criteriaMode: 'all',
    defaultValues: { rootRedirect: domain.rootRedirect ?? '', notFoundRedirect: domain.notFoundRedirect ?? '' },
  });
  const { errors } = form.formState;
  const id = (field: (typeof fields)[number]) => `domain-${domain.id}-${field}`;
  const submit = form.handleSubmit((changes) =>
    update.mutate(
      { id: domain.id, changes },
      {
        onSuccess: (saved) => {
          form.reset({ rootRedirect: saved.rootRedirect ?? '', notFoundRedirect: saved.notFoundRedirect ?? '' });
          toast(`Redirecciones de ${saved.displayHostname} guardadas.`, 'success');
        },
        onError: (error) => {
          if (error instanceof ApiError) applyServerFields(error, form.setError, fields);
          form.setError('root.server', { message: messageOf(error) });
        },
      },
    ),
  );
  return (
    <form noValidate onSubmit={submit} aria-label={`Redirecciones de ${domain.displayHostname}`} className="grid gap-3">
      <p className="text-sm text-slate-300">Déjalas vacías para mostrar la página de Corto.</p>
      <FormField
        id={id('rootRedirect')}
        label="Al abrir el dominio sin código"
        type="url"
        inputMode="url"
        autoComplete="off"
        placeholder="https://empresa.es"
        error={errors.rootRedirect}
        {...form.register('rootRedirect')}
      />
      <FormField
        id={id('notFoundRedirect')}
        label="Código desconocido"
        type="url"
        inputMode="url"
        autoComplete="off"
        placeholder="https://empresa.es/no-encontrado"
        error={errors.notFoundRedirect}
        {...form.register('notFoundRedirect')}
      />
      <FormAlert message={errors.root?.server?.message} />
      <div>
        <Button type="submit" variant="secondary" loading={update.isPending}>
          Guardar redirecciones
        </Button>
      </div>
    </form>
  );
}
