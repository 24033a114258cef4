import { deleteAccountSchema } from '@common/account/account-schemas';
import { oidcMessages } from '@common/auth/oidc-messages';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { applyServerFields } from '../../../components/form/apply-server-fields';
import { FormField } from '../../../components/form/form-field';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '../../../components/ui/dialog';
import { toast } from '../../../components/ui/toaster';
import { messageOf } from '../../../api/client';
import { useDeleteAccount } from '../api/profile';
import { Section } from './section';

/** `typeEmail`: an account without a password (the company's provider made it) confirms by typing its e-mail. */
export function DeleteAccountSection({ typeEmail = false }: { typeEmail?: boolean }) {
  const navigate = useNavigate();
  const mutation = useDeleteAccount();
  const form = useForm<z.input<typeof deleteAccountSchema>, unknown, z.output<typeof deleteAccountSchema>>({
    resolver: zodResolver(deleteAccountSchema),
    defaultValues: { password: '' },
  });
  const onSubmit = form.handleSubmit((values) =>
    mutation.mutate(values, {
      // The landing page is where the user ends up: a notice there says what happened.
      onSuccess: () => {
        navigate('/', { replace: true });
        toast('Tu cuenta se ha eliminado, con tus links y sus estadísticas.', 'success');
      },
      onError: (error) => applyServerFields(error, form.setError),
    }),
  );
  return (
    <Section id="cuenta-eliminar" title="Eliminar mi cuenta" description="Se borran tu cuenta, tus links, sus clics y estadísticas, y tus archivos. No se puede deshacer.">
      <Dialog onOpenChange={(open) => (open ? undefined : (form.reset(), mutation.reset()))}>
        <DialogTrigger asChild>
          <Button variant="destructive">Eliminar mi cuenta</Button>
        </DialogTrigger>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>¿Eliminar tu cuenta?</DialogTitle>
            <DialogDescription>
              Tus links dejarán de funcionar al momento y se borrarán sus estadísticas. {typeEmail ? `${oidcMessages.deleteTypeEmail}.` : 'Escribe tu contraseña para confirmar.'}
            </DialogDescription>
          </DialogHeader>
          <form noValidate onSubmit={onSubmit} className="grid gap-4">
            <FormField
              id="delete-password"
              label={typeEmail ? 'Tu email' : 'Contraseña'}
              type={typeEmail ? 'email' : 'password'}
              autoComplete={typeEmail ? 'off' : 'current-password'}
              error={form.formState.errors.password} {...form.register('password')} />
            {mutation.isError && !form.formState.errors.password && <Alert>{messageOf(mutation.error)}</Alert>}
            <DialogFooter>
              <Button type="submit" variant="destructive" loading={mutation.isPending}>
                Eliminar definitivamente
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      </Dialog>
    </Section>
  );
}
