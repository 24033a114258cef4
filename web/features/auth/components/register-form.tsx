import { authMessages } from '@common/auth/auth-messages';
import { zodResolver } from '@hookform/resolvers/zod';
import { type FieldError, useForm, useWatch } from 'react-hook-form';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { useRegister } from '../api/register';
import { type RegisterFormInput, type RegisterFormValues, registerFormSchema } from '../register-form-schema';
import { applyServerFields } from '../../../components/form/apply-server-fields';
import { FormField } from '../../../components/form/form-field';
import { PictureField } from './picture-field';
import { serverErrorMessage } from './server-error';

export function RegisterForm() {
  const registerMutation = useRegister();
  const form = useForm<RegisterFormInput, unknown, RegisterFormValues>({
    resolver: zodResolver(registerFormSchema),
    criteriaMode: 'all',
    defaultValues: { name: '', email: '', password: '' },
  });
  const { errors } = form.formState;
  const pictureFiles = useWatch({ control: form.control, name: 'profileImage' });
  const serverError = serverErrorMessage(registerMutation.error, authMessages.registerFailed);

  const onSubmit = form.handleSubmit(({ profileImage, ...fields }) => {
    const file = profileImage[0];
    if (!file) return; // The schema has already refused an empty picture.
    registerMutation.mutate(
      { ...fields, profileImage: file },
      { onError: (error) => applyServerFields(error, form.setError) },
    );
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Registrarse</CardTitle>
        <CardDescription>Crea una cuenta nueva si aún no tienes una</CardDescription>
        {serverError && (
          <Alert>{serverError}</Alert>
        )}
      </CardHeader>
      <CardContent>
        <form noValidate onSubmit={onSubmit} className="grid gap-4">
          <FormField id="register-name" label="Nombre" autoComplete="name" error={errors.name} {...form.register('name')} />
          <FormField
            id="register-email"
            label="Email"
            type="email"
            autoComplete="email"
            placeholder="tu@email.com"
            error={errors.email}
            {...form.register('email')}
          />
          <FormField
            id="register-password"
            label="Contraseña"
            type="password"
            autoComplete="new-password"
            error={errors.password}
            {...form.register('password')}
          />
          <PictureField
            id="register-picture"
            files={pictureFiles}
            // The FileList field's error has the same shape as any other.
            error={errors.profileImage as FieldError | undefined}
            registration={form.register('profileImage')}
          />
          <Button type="submit" loading={registerMutation.isPending} className="w-full">
            Crear cuenta
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
