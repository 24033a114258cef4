import { changeEmailSchema, updateNameSchema } from '@common/account/account-schemas';
import type { User } from '@common/auth/auth-schemas';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { applyServerFields } from '../../../components/form/apply-server-fields';
import { FormField } from '../../../components/form/form-field';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { messageOf } from '../../../api/client';
import { emailVerificationQueryKey, useEmailVerification } from '../api/email-verification';
import { useChangeEmail, useUpdateName } from '../api/profile';
import { EmailVerification } from './email-verification';
import { Done, Section } from './section';

export function NameSection({ user }: { user: User }) {
  const mutation = useUpdateName();
  const form = useForm<z.input<typeof updateNameSchema>, unknown, z.output<typeof updateNameSchema>>({
    resolver: zodResolver(updateNameSchema),
    criteriaMode: 'all',
    defaultValues: { name: user.name },
  });
  // A «Nombre guardado» from before never stays beside a new change or a new message.
  const onSubmit = form.handleSubmit(
    (values) => mutation.mutate(values, { onError: (error) => applyServerFields(error, form.setError) }),
    () => mutation.reset(),
  );
  return (
    <Section id="cuenta-nombre" title="Nombre">
      <form noValidate onSubmit={onSubmit} className="grid gap-4">
        <FormField id="account-name" label="Nombre" autoComplete="name" error={form.formState.errors.name} {...form.register('name', { onChange: () => mutation.reset() })} />
        {mutation.isError && !form.formState.errors.name && <Alert>{messageOf(mutation.error)}</Alert>}
        {mutation.isSuccess && <Done>Nombre guardado</Done>}
        <Button type="submit" loading={mutation.isPending} className="justify-self-start">
          Guardar nombre
        </Button>
      </form>
    </Section>
  );
}

export function EmailSection({ user }: { user: User }) {
  const mutation = useChangeEmail();
  const queryClient = useQueryClient();
  // Whether this server mails links: then a new address waits for its own.
  const mailed = useEmailVerification().data?.available === true;
  const form = useForm<z.input<typeof changeEmailSchema>, unknown, z.output<typeof changeEmailSchema>>({
    resolver: zodResolver(changeEmailSchema),
    criteriaMode: 'all',
    defaultValues: { email: user.email, password: '' },
  });
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit((values) =>
    mutation.mutate(values, {
      onSuccess: (answer) => {
        // With mail the address stays until the new one is confirmed (the answer's user is unchanged).
        form.reset({ email: answer.user.email, password: '' });
        // A new address starts unverified; a change waiting shows under the form.
        void queryClient.invalidateQueries({ queryKey: emailVerificationQueryKey });
      },
      onError: (error) => applyServerFields(error, form.setError),
    }),
    () => mutation.reset(),
  );
  return (
    <Section id="cuenta-email" title="Email" description={
        mailed
          ? 'Para cambiarlo, confirma con tu contraseña. El cambio se hará cuando abras el enlace que enviaremos a la nueva dirección.'
          : 'Para cambiarlo, confirma con tu contraseña.'
      }>
      <form noValidate onSubmit={onSubmit} className="grid gap-4">
        <FormField id="account-email" label="Email" type="email" autoComplete="email" error={errors.email} {...form.register('email', { onChange: () => mutation.reset() })} />
        <FormField
          id="account-email-password"
          label="Contraseña"
          type="password"
          autoComplete="current-password"
          error={errors.password}
          {...form.register('password')}
        />
        {mutation.isError && !errors.email && !errors.password && <Alert>{messageOf(mutation.error)}</Alert>}
        {mutation.isSuccess && (
          <div className="[overflow-wrap:anywhere]">
            <Done>{mutation.data.message ?? 'Email cambiado'}</Done>
          </div>
        )}
        <Button type="submit" loading={mutation.isPending} className="justify-self-start">
          Cambiar email
        </Button>
      </form>
      <div className="mt-4">
        <EmailVerification />
      </div>
    </Section>
  );
}
