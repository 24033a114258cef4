import { errorMessages } from '@common/messages';
import { type CreatedToken, type CreateTokenInput, createTokenSchema } from '@common/tokens/token-schemas';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { applyServerFields } from '../../../components/form/apply-server-fields';
import { FormAlert } from '../../../components/form/form-alert';
import { Button } from '../../../components/ui/button';
import { FieldError, fieldErrorId } from '../../../components/ui/field-error';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { ApiError } from '../../../api/client';
import { useCreateToken } from '../api/tokens';

type FormValues = { name: string; scope: 'read' | 'write'; expiresOn: string };
// The API's rules for name and scope; the day picked is turned into expiresAt on sending.
const formSchema = createTokenSchema.omit({ expiresAt: true }).extend({ expiresOn: z.string() });

const messagesOf = (error: { message?: string; types?: Record<string, unknown> } | undefined): string[] =>
  error ? [...new Set(Object.values(error.types ?? {}).flat().map(String).concat(error.types ? [] : [error.message ?? '']))].filter(Boolean) : [];

/** A date picked in the form (yyyy-mm-dd) as the end of that day, local time, in ISO. */
function endOfDay(date: string): string | null {
  if (!date) return null;
  const [year, month, day] = date.split('-').map(Number);
  return new Date(year!, month! - 1, day!, 23, 59, 59).toISOString();
}

/** Name, permissions and an optional expiry; the new secret goes to onCreated, to be shown once. */
export function CreateTokenForm({ onCreated }: { onCreated: (created: CreatedToken) => void }) {
  const creation = useCreateToken();
  const form = useForm<FormValues>({
    resolver: zodResolver(formSchema),
    criteriaMode: 'all',
    defaultValues: { name: '', scope: 'read', expiresOn: '' },
  });
  const { errors } = form.formState;
  const submit = form.handleSubmit((values) => {
    const input: CreateTokenInput = { name: values.name, scope: values.scope, expiresAt: endOfDay(values.expiresOn) };
    creation.mutate(input, {
      onSuccess: (created) => {
        form.reset();
        onCreated(created);
      },
      onError: (error) => {
        applyServerFields(error, form.setError, ['name', 'scope']);
        if (error instanceof ApiError && error.fields.expiresAt) form.setError('expiresOn', { message: error.fields.expiresAt[0] });
        form.setError('root.server', { message: error instanceof ApiError ? error.message : errorMessages.internal });
      },
    });
  });
  const nameMessages = messagesOf(errors.name);
  const expiryMessages = messagesOf(errors.expiresOn);
  const today = new Date().toISOString().slice(0, 10);

  return (
    <form noValidate onSubmit={submit} className="grid gap-4" aria-label="Crear token">
      <div className="grid gap-2">
        <Label htmlFor="token-name">Nombre</Label>
        <Input
          id="token-name"
          placeholder="p. ej. ShareX del portátil"
          aria-invalid={nameMessages.length > 0 || undefined}
          aria-describedby={fieldErrorId('token-name')}
          {...form.register('name')}
        />
        <FieldError fieldId="token-name" messages={nameMessages} />
      </div>
      <fieldset className="grid gap-2">
        <legend className="mb-2 text-sm font-medium">Permisos</legend>
        <label className="flex items-center gap-2 text-sm">
          <input type="radio" value="read" className="accent-teal-400" {...form.register('scope')} />
          Solo lectura (consultar links y estadísticas)
        </label>
        <label className="flex items-center gap-2 text-sm">
          <input type="radio" value="write" className="accent-teal-400" {...form.register('scope')} />
          Lectura y escritura (también crear, editar y borrar links)
        </label>
      </fieldset>
      <div className="grid gap-2">
        <Label htmlFor="token-expiry">Caduca (opcional)</Label>
        <Input
          id="token-expiry"
          type="date"
          min={today}
          className="sm:w-56"
          aria-invalid={expiryMessages.length > 0 || undefined}
          aria-describedby={fieldErrorId('token-expiry')}
          {...form.register('expiresOn')}
        />
        <FieldError fieldId="token-expiry" messages={expiryMessages} />
      </div>
      <FormAlert message={errors.root?.server?.message} />
      <div>
        <Button type="submit" disabled={creation.isPending}>
          {creation.isPending ? 'Creando…' : 'Crear token'}
        </Button>
      </div>
    </form>
  );
}
