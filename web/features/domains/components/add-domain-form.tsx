import { type AddDomainInput, addDomainSchema, type Domain } from '@common/domains/domain-schemas';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { ApiError, messageOf } from '../../../api/client';
import { applyServerFields } from '../../../components/form/apply-server-fields';
import { FormAlert } from '../../../components/form/form-alert';
import { FormField } from '../../../components/form/form-field';
import { Button } from '../../../components/ui/button';
import { toast } from '../../../components/ui/toaster';
import { useAddDomain } from '../api/domains';

type Values = z.input<typeof addDomainSchema>;

/**
 * «Añadir dominio»: the name, checked here with the server's own rules; the server's refusals (taken,
 * blocked, over the limit) under the field as well, where the name was typed.
 */
export function AddDomainForm({ onAdded }: { onAdded: (domain: Domain) => void }) {
  const addition = useAddDomain();
  const form = useForm<Values, unknown, AddDomainInput>({ resolver: zodResolver(addDomainSchema), criteriaMode: 'all', defaultValues: { hostname: '' } });
  const { errors } = form.formState;
  const submit = form.handleSubmit((input) =>
    addition.mutate(input, {
      onSuccess: (domain) => {
        form.reset({ hostname: '' });
        toast(`Dominio ${domain.displayHostname} añadido. Crea su registro TXT y pulsa «Verificar».`, 'success');
        onAdded(domain);
      },
      onError: (error) => {
        // A refusal of the name (4xx) goes under it; no answer or a server failure, beside the button.
        if (error instanceof ApiError && error.status >= 400 && error.status < 500) {
          applyServerFields(error, form.setError, ['hostname']);
          if (!error.fields.hostname?.length) form.setError('hostname', { type: 'server', message: error.message });
          form.setFocus('hostname');
          return;
        }
        form.setError('root.server', { message: messageOf(error) });
      },
    }),
  );
  return (
    <form noValidate onSubmit={submit} aria-label="Añadir dominio" className="grid grid-cols-1 gap-3 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-start">
      <FormField
        id="domain-hostname"
        label="Dominio"
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        inputMode="url"
        placeholder="go.empresa.es"
        error={errors.hostname}
        {...form.register('hostname', { onChange: () => form.clearErrors('root.server') })}
      />
      <Button type="submit" loading={addition.isPending} className="sm:mt-5.5">
        Añadir dominio
      </Button>
      <FormAlert message={errors.root?.server?.message} className="sm:col-span-2" />
    </form>
  );
}
