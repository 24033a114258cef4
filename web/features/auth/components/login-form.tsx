import { authMessages } from '@common/auth/auth-messages';
import { type LoginInput, loginSchema } from '@common/auth/auth-schemas';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { FormAlert } from '../../../components/form/form-alert';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { useLogin } from '../api/login';
import { usePasswordResetAvailable } from '../api/password-reset-availability';
import { LoginCodeForm } from './login-code-form';
import { applyServerFields } from '../../../components/form/apply-server-fields';
import { FormField } from '../../../components/form/form-field';
import { serverErrorMessage } from './server-error';

export function LoginForm() {
  const loginMutation = useLogin();
  const resetAvailable = usePasswordResetAvailable();
  const [codeAsked, setCodeAsked] = useState(false);
  const form = useForm<LoginInput>({
    resolver: zodResolver(loginSchema),
    // Every message of every field at once, as the spec asks.
    criteriaMode: 'all',
    defaultValues: { email: '', password: '' },
  });
  const { errors } = form.formState;
  const serverError = serverErrorMessage(loginMutation.error, authMessages.loginFailed);

  const onSubmit = form.handleSubmit((values) =>
    loginMutation.mutate(values, {
      onSuccess: (answer) => setCodeAsked('totpRequired' in answer),
      onError: (error) => applyServerFields(error, form.setError),
    }),
  );

  return (
    <Card>
      <CardHeader>
        <CardTitle>Iniciar sesión</CardTitle>
        <CardDescription>Accede a tu cuenta si ya tienes una</CardDescription>
      </CardHeader>
      <CardContent>
        {codeAsked ? (
          <LoginCodeForm
            onRestart={() => {
              setCodeAsked(false);
              loginMutation.reset();
            }}
          />
        ) : (
        <form noValidate onSubmit={onSubmit} className="grid gap-4">
          <FormField id="login-email" label="Email" type="email" autoComplete="email" placeholder="tu@email.com" error={errors.email} {...form.register('email')} />
          <FormField
            id="login-password"
            label="Contraseña"
            type="password"
            autoComplete="current-password"
            error={errors.password}
            {...form.register('password')}
          />
          <FormAlert message={codeAsked ? undefined : serverError} />
          <Button type="submit" loading={loginMutation.isPending} className="w-full">
            Iniciar sesión
          </Button>
          {resetAvailable && (
            <Link to="/auth/recuperar" className="justify-self-center text-sm text-teal-300 underline-offset-4 hover:underline">
              ¿Olvidaste tu contraseña?
            </Link>
          )}
        </form>
        )}
      </CardContent>
    </Card>
  );
}
