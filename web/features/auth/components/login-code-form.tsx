import { totpCodeSchema } from '@common/account/account-schemas';
import { authMessages } from '@common/auth/auth-messages';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { applyServerFields } from '../../../components/form/apply-server-fields';
import { FormField } from '../../../components/form/form-field';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { useLoginCode } from '../api/login';
import { serverErrorMessage } from './server-error';

/** The second step of a sign-in with two-factor on: the app's code, or a recovery code. */
export function LoginCodeForm({ onRestart }: { onRestart(): void }) {
  const mutation = useLoginCode();
  const form = useForm<z.input<typeof totpCodeSchema>, unknown, z.output<typeof totpCodeSchema>>({
    resolver: zodResolver(totpCodeSchema),
    defaultValues: { code: '' },
  });
  const onSubmit = form.handleSubmit((values) => mutation.mutate(values, { onError: (error) => applyServerFields(error, form.setError) }));
  const error = form.formState.errors.code ? undefined : serverErrorMessage(mutation.error, authMessages.loginFailed);
  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-4">
      <p className="text-sm text-slate-300">Escribe el código de tu aplicación de autenticación, o uno de tus códigos de recuperación.</p>
      <FormField id="login-code" label="Código" inputMode="numeric" autoComplete="one-time-code" autoFocus error={form.formState.errors.code} {...form.register('code')} />
      {error && <Alert>{error}</Alert>}
      <Button type="submit" loading={mutation.isPending} className="w-full">
        Verificar
      </Button>
      <Button type="button" variant="link" onClick={onRestart}>
        Volver a escribir email y contraseña
      </Button>
    </form>
  );
}
