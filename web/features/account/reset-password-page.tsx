import { passwordResetConfirmSchema } from '@common/account/account-schemas';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { usePageTitle } from '../../app/use-page-title';
import { ApiError, messageOf } from '../../api/client';
import { applyServerFields } from '../../components/form/apply-server-fields';
import { FormField } from '../../components/form/form-field';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { useConfirmReset } from './api/password-reset';

const linkClass = 'text-teal-300 underline-offset-4 hover:underline';

/** /auth/restablecer?token=...: the e-mail's link. A used, expired or forged one says so and offers another. */
export function ResetPasswordPage() {
  usePageTitle('Nueva contraseña');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const mutation = useConfirmReset();
  const form = useForm<z.input<typeof passwordResetConfirmSchema>, unknown, z.output<typeof passwordResetConfirmSchema>>({
    resolver: zodResolver(passwordResetConfirmSchema),
    criteriaMode: 'all',
    defaultValues: { token, password: '' },
  });
  const onSubmit = form.handleSubmit((values) => mutation.mutate({ ...values, token }, { onError: (error) => applyServerFields(error, form.setError, ['password']) }));
  const tokenRefused = mutation.error instanceof ApiError && mutation.error.fields.token ? mutation.error.fields.token[0] : !token ? 'Falta el enlace para restablecer la contraseña' : undefined;

  return (
    <div className="mx-auto max-w-md">
      <Card>
        <CardHeader>
          <CardTitle as="h1">Elige una contraseña nueva</CardTitle>
          <CardDescription>Al guardarla se cerrarán todas tus sesiones y se revocarán todos tus tokens de API.</CardDescription>
        </CardHeader>
        <CardContent>
          {mutation.isSuccess ? (
            <p role="status" className="text-teal-300">
              Contraseña cambiada. <Link to="/auth" className={linkClass}>Inicia sesión</Link> con la nueva.
            </p>
          ) : tokenRefused ? (
            <div className="grid gap-3">
              <Alert>{tokenRefused}</Alert>
              <Link to="/auth/recuperar" className={linkClass}>
                Pedir otro enlace
              </Link>
            </div>
          ) : (
            <form noValidate onSubmit={onSubmit} className="grid gap-4">
              <FormField id="reset-password" label="Contraseña nueva" type="password" autoComplete="new-password" error={form.formState.errors.password} {...form.register('password')} />
              {mutation.isError && !form.formState.errors.password && <Alert>{messageOf(mutation.error)}</Alert>}
              <Button type="submit" loading={mutation.isPending}>
                Guardar la contraseña
              </Button>
            </form>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
