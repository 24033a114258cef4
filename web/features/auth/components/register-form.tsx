import { adminMessages } from '@common/admin/admin-messages';
import { authMessages } from '@common/auth/auth-messages';
import { zodResolver } from '@hookform/resolvers/zod';
import { type FieldError, useForm, useWatch } from 'react-hook-form';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { useSearchParams } from 'react-router';
import { ApiError } from '../../../api/client';
import { useRegister } from '../api/register';
import { useSignupStatus } from '../api/signup-status';
import { type RegisterFormInput, type RegisterFormValues, registerFormSchema } from '../register-form-schema';
import { applyServerFields } from '../../../components/form/apply-server-fields';
import { FormField } from '../../../components/form/form-field';
import { PictureField } from './picture-field';
import { serverErrorMessage } from './server-error';

export function RegisterForm() {
  const signup = useSignupStatus().data?.signup ?? 'open';
  const invite = useSearchParams()[0].get('invite') ?? undefined;
  if (signup === 'closed') return <SignupNotice title="El registro está cerrado" text={adminMessages.signupClosedHelp} />;
  if (signup === 'invite' && !invite) return <SignupNotice title="Registro solo con invitación" text={adminMessages.signupInviteHelp} />;
  return <OpenRegisterForm invite={invite} />;
}

/** Why there is no form: sign-up is closed, or needs an invitation link. */
function SignupNotice({ title, text }: { title: string; text: string }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{text}</CardDescription>
      </CardHeader>
    </Card>
  );
}

function OpenRegisterForm({ invite }: { invite: string | undefined }) {
  const registerMutation = useRegister();
  const form = useForm<RegisterFormInput, unknown, RegisterFormValues>({
    resolver: zodResolver(registerFormSchema),
    criteriaMode: 'all',
    defaultValues: { name: '', email: '', password: '' },
  });
  const { errors } = form.formState;
  const pictureFiles = useWatch({ control: form.control, name: 'profileImage' });
  const failure = registerMutation.error;
  // The invitation is no field of the form: its refusal is the form's message.
  const inviteError = failure instanceof ApiError ? failure.fields.invite?.[0] : undefined;
  const serverError = inviteError ?? serverErrorMessage(failure, authMessages.registerFailed);

  const onSubmit = form.handleSubmit(({ profileImage, ...fields }) => {
    const file = profileImage[0];
    if (!file) return; // The schema has already refused an empty picture.
    registerMutation.mutate(
      { ...fields, profileImage: file, invite },
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
