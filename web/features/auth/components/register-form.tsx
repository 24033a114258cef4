import { adminMessages } from '@common/admin/admin-messages';
import { authMessages } from '@common/auth/auth-messages';
import { zodResolver } from '@hookform/resolvers/zod';
import { type FieldError, useForm, useWatch } from 'react-hook-form';
import { FormAlert } from '../../../components/form/form-alert';
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
  const invite = useSearchParams()[0].get('invite') || undefined;
  const status = useSignupStatus(invite);
  const signup = status.data?.signup ?? 'open';
  if (signup === 'closed') return <SignupNotice title="El registro está cerrado" text={adminMessages.signupClosedHelp} />;
  if (signup === 'invite' && !invite) return <SignupNotice title="Registro solo con invitación" text={adminMessages.signupInviteHelp} />;
  // An invitation link: the form waits to know whom it is for, so its e-mail starts filled in.
  if (invite && status.isPending) return null;
  const described = status.data?.invite;
  if (signup === 'invite' && described && !described.valid) {
    return <SignupNotice title="Esta invitación ya no sirve" text={`${adminMessages.inviteInvalid}. Pide otra a quien te invitó.`} />;
  }
  return <OpenRegisterForm invite={invite} invitedEmail={described?.valid ? (described.email ?? '') : undefined} />;
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

/** `invitedEmail`: set for a usable invitation, '' when it is for any address. */
function OpenRegisterForm({ invite, invitedEmail }: { invite: string | undefined; invitedEmail: string | undefined }) {
  const registerMutation = useRegister();
  const form = useForm<RegisterFormInput, unknown, RegisterFormValues>({
    resolver: zodResolver(registerFormSchema),
    criteriaMode: 'all',
    defaultValues: { name: '', email: invitedEmail ?? '', password: '' },
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
        {invitedEmail !== undefined && (
          <p role="status" className="rounded-lg border border-teal-400/40 bg-teal-950/40 px-3 py-2 text-sm text-teal-100">
            {invitedEmail
              ? `Te han invitado a Corto. La invitación es para ${invitedEmail}: regístrate con esa dirección.`
              : 'Te han invitado a Corto. Crea tu cuenta con el email que quieras.'}
          </p>
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
          {/* Beside the button: on a phone the card's top is out of view by then. */}
          <FormAlert message={serverError} />
          <Button type="submit" loading={registerMutation.isPending} className="w-full">
            Crear cuenta
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
