import { passwordResetRequestSchema } from '@common/account/account-schemas';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import type { z } from 'zod';
import { usePageTitle } from '../../app/use-page-title';
import { applyServerFields } from '../../components/form/apply-server-fields';
import { FormField } from '../../components/form/form-field';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { messageOf } from '../../api/client';
import { useRequestReset } from './api/password-reset';

/** /auth/recuperar: '¿Olvidaste tu contraseña?' leads here; the e-mail's link leads on to /auth/restablecer. */
export function ForgotPasswordPage() {
  usePageTitle('Recuperar la contraseña');
  const mutation = useRequestReset();
  const form = useForm<z.input<typeof passwordResetRequestSchema>, unknown, z.output<typeof passwordResetRequestSchema>>({
    resolver: zodResolver(passwordResetRequestSchema),
    criteriaMode: 'all',
    defaultValues: { email: '' },
  });
  const onSubmit = form.handleSubmit((values) => mutation.mutate(values, { onError: (error) => applyServerFields(error, form.setError) }));
  return (
    <div className="mx-auto max-w-md">
      <Card>
        <CardHeader>
          <CardTitle as="h1">Recuperar la contraseña</CardTitle>
          <CardDescription>Te enviaremos un enlace para elegir una contraseña nueva. Caduca a los 30 minutos.</CardDescription>
        </CardHeader>
        <CardContent>
          {mutation.isSuccess ? (
            <p role="status" className="text-teal-300">{mutation.data.message}</p>
          ) : (
            <form noValidate onSubmit={onSubmit} className="grid gap-4">
              <FormField id="forgot-email" label="Email" type="email" autoComplete="email" placeholder="tu@email.com" error={form.formState.errors.email} {...form.register('email')} />
              {mutation.isError && !form.formState.errors.email && <Alert>{messageOf(mutation.error)}</Alert>}
              <Button type="submit" loading={mutation.isPending}>
                Enviar el enlace
              </Button>
            </form>
          )}
          <p className="mt-4 text-sm">
            <Link to="/auth" className="text-teal-300 underline-offset-4 hover:underline">
              Volver a iniciar sesión
            </Link>
          </p>
        </CardContent>
      </Card>
    </div>
  );
}
