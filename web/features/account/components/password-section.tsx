import { changePasswordSchema } from '@common/account/account-schemas';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { applyServerFields } from '../../../components/form/apply-server-fields';
import { FormField } from '../../../components/form/form-field';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { messageOf } from '../../../api/client';
import { useChangePassword } from '../api/profile';
import { Done, Section } from './section';

export function PasswordSection() {
  const mutation = useChangePassword();
  const form = useForm<z.input<typeof changePasswordSchema>, unknown, z.output<typeof changePasswordSchema>>({
    resolver: zodResolver(changePasswordSchema),
    criteriaMode: 'all',
    defaultValues: { currentPassword: '', newPassword: '' },
  });
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit((values) =>
    mutation.mutate(values, {
      onSuccess: () => form.reset(),
      onError: (error) => applyServerFields(error, form.setError),
    }),
    // A «Contraseña cambiada» from before never stays beside a new message.
    () => mutation.reset(),
  );
  return (
    <Section id="cuenta-contrasena" title="Contraseña" description="Al cambiarla se cierran todas tus demás sesiones y se revocan todos tus tokens de API.">
      <form noValidate onSubmit={onSubmit} className="grid gap-4">
        <FormField
          id="account-current-password"
          label="Contraseña actual"
          type="password"
          autoComplete="current-password"
          error={errors.currentPassword}
          {...form.register('currentPassword')}
        />
        <FormField
          id="account-new-password"
          label="Contraseña nueva"
          type="password"
          autoComplete="new-password"
          error={errors.newPassword}
          {...form.register('newPassword')}
        />
        {mutation.isError && !errors.currentPassword && !errors.newPassword && <Alert>{messageOf(mutation.error)}</Alert>}
        {mutation.isSuccess && <Done>Contraseña cambiada. Las demás sesiones se han cerrado y tus tokens de API se han revocado.</Done>}
        <Button type="submit" loading={mutation.isPending} className="justify-self-start">
          Cambiar contraseña
        </Button>
      </form>
    </Section>
  );
}
