import { totpCodeSchema, totpDisableSchema } from '@common/account/account-schemas';
import type { User } from '@common/auth/auth-schemas';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { applyServerFields } from '../../../components/form/apply-server-fields';
import { FormField } from '../../../components/form/form-field';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { messageOf } from '../../../api/client';
import { useConfirmTotp, useDisableTotp, useStartTotp } from '../api/totp';
import { RecoveryCodes } from './recovery-codes';
import { Section } from './section';

type CodeForm = z.input<typeof totpCodeSchema>;

function ConfirmStep({ setup, onDone }: { setup: { secret: string; qr: string }; onDone: () => void }) {
  const confirm = useConfirmTotp();
  const form = useForm<CodeForm, unknown, z.output<typeof totpCodeSchema>>({ resolver: zodResolver(totpCodeSchema), defaultValues: { code: '' } });
  const onSubmit = form.handleSubmit((values) => confirm.mutate(values, { onError: (error) => applyServerFields(error, form.setError) }));
  if (confirm.data) return <RecoveryCodes codes={confirm.data.recoveryCodes} onDone={onDone} />;
  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-4">
      <p className="text-sm text-slate-300">Escanea el código QR con tu aplicación de autenticación (o escribe la clave) y confirma con el código que muestra.</p>
      <img src={setup.qr} alt="Código QR para la aplicación de autenticación" width={240} height={240} className="rounded bg-white" />
      <p className="text-sm">
        Clave: <code className="break-all font-mono">{setup.secret}</code>
      </p>
      <FormField id="totp-confirm-code" label="Código de la aplicación" inputMode="numeric" autoComplete="one-time-code" error={form.formState.errors.code} {...form.register('code')} />
      {confirm.isError && !form.formState.errors.code && <Alert>{messageOf(confirm.error)}</Alert>}
      <Button type="submit" loading={confirm.isPending} className="justify-self-start">
        Activar
      </Button>
    </form>
  );
}

function DisableForm() {
  const disable = useDisableTotp();
  const form = useForm<z.input<typeof totpDisableSchema>, unknown, z.output<typeof totpDisableSchema>>({
    resolver: zodResolver(totpDisableSchema),
    criteriaMode: 'all',
    defaultValues: { password: '', code: '' },
  });
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit((values) => disable.mutate(values, { onError: (error) => applyServerFields(error, form.setError) }));
  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-4">
      <p className="text-sm text-teal-300">La verificación en dos pasos está activada.</p>
      <FormField id="totp-off-password" label="Contraseña" type="password" autoComplete="current-password" error={errors.password} {...form.register('password')} />
      <FormField id="totp-off-code" label="Código (o de recuperación)" autoComplete="one-time-code" error={errors.code} {...form.register('code')} />
      {disable.isError && !errors.password && !errors.code && <Alert>{messageOf(disable.error)}</Alert>}
      <Button type="submit" variant="destructive" loading={disable.isPending} className="justify-self-start">
        Desactivar
      </Button>
    </form>
  );
}

export function TotpSection({ user }: { user: User }) {
  const start = useStartTotp();
  return (
    <Section
      id="cuenta-dos-pasos"
      title="Verificación en dos pasos"
      description="Además de la contraseña, al iniciar sesión se pedirá un código de tu aplicación de autenticación."
    >
      {user.totp && !start.data ? (
        <DisableForm />
      ) : start.data ? (
        <ConfirmStep setup={start.data} onDone={() => start.reset()} />
      ) : (
        <div className="grid gap-3">
          {start.isError && <Alert>{messageOf(start.error)}</Alert>}
          <Button loading={start.isPending} onClick={() => start.mutate()} className="justify-self-start">
            Activar la verificación en dos pasos
          </Button>
        </div>
      )}
    </Section>
  );
}
