import type { SignupMode } from '@common/admin/admin-schemas';
import { type FormEvent, useState } from 'react';
import { ApiError, messageOf } from '../../api/client';
import { usePageTitle } from '../../app/use-page-title';
import { Alert } from '../../components/ui/alert';
import { BarLoader } from '../../components/ui/bar-loader';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { toast } from '../../components/ui/toaster';
import { formatDateTime } from '../../lib/format';
import { useCreateInvite, useSaveSettings, useSettings } from './api/admin-api';

const modes: { value: SignupMode; label: string }[] = [
  { value: 'open', label: 'Abierto: cualquiera puede crear una cuenta' },
  { value: 'invite', label: 'Solo con invitación' },
  { value: 'closed', label: 'Cerrado: nadie puede crear cuentas' },
];

function SettingsForm({ signup, blockedDomains, fromEnv }: { signup: SignupMode; blockedDomains: string[]; fromEnv: SignupMode | null }) {
  const save = useSaveSettings();
  const [mode, setMode] = useState(signup);
  const [domains, setDomains] = useState(blockedDomains.join('\n'));
  const [error, setError] = useState<string>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    const list = domains.split(/[\s,]+/).filter(Boolean);
    save.mutate(
      { signup: mode, blockedDomains: list },
      {
        onSuccess: (saved) => {
          setDomains(saved.blockedDomains.join('\n'));
          toast('Ajustes guardados', 'success');
        },
        onError: (failure) => {
          const fields = failure instanceof ApiError ? Object.values(failure.fields).flat() : [];
          setError(fields[0] ?? messageOf(failure));
        },
      },
    );
  };
  return (
    <form onSubmit={submit} className="flex flex-col gap-6">
      <fieldset className="flex flex-col gap-2" disabled={fromEnv !== null}>
        <legend className="mb-2 font-semibold">Registro de cuentas nuevas</legend>
        {fromEnv !== null && (
          <p className="rounded-lg border border-amber-400/40 bg-amber-950/40 px-3 py-2 text-sm text-amber-100">
            La variable de entorno SIGNUP={fromEnv} fija este ajuste y tiene prioridad sobre lo que se elija aquí.
          </p>
        )}
        {modes.map((option) => (
          <label key={option.value} className="flex items-center gap-2 text-sm">
            <input type="radio" name="signup" value={option.value} checked={mode === option.value} onChange={() => setMode(option.value)} />
            {option.label}
          </label>
        ))}
      </fieldset>
      <div className="flex flex-col gap-2">
        <Label htmlFor="blocked-domains">Dominios bloqueados</Label>
        <p id="blocked-domains-help" className="text-sm text-slate-400">
          Uno por línea. Un dominio bloquea también sus subdominios; sus links existentes dejan de funcionar al momento.
        </p>
        <textarea
          id="blocked-domains"
          rows={6}
          value={domains}
          onChange={(event) => setDomains(event.target.value)}
          aria-describedby={error ? 'blocked-domains-help blocked-domains-error' : 'blocked-domains-help'}
          aria-invalid={error ? true : undefined}
          className="rounded-lg border border-slate-700 bg-slate-900 p-3 font-mono text-sm"
        />
        {error && (
          <p id="blocked-domains-error" role="alert" className="text-sm text-red-300">
            {error}
          </p>
        )}
      </div>
      <Button type="submit" loading={save.isPending} className="self-start">
        Guardar ajustes
      </Button>
    </form>
  );
}

function Invites() {
  const create = useCreateInvite();
  const [email, setEmail] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(email.trim() ? { email: email.trim() } : {});
  };
  const invite = create.data?.invite;
  return (
    <section className="flex flex-col gap-3">
      <h3 className="font-semibold">Invitaciones</h3>
      <p className="text-sm text-slate-400">Cada invitación sirve para una sola cuenta y caduca a los 7 días.</p>
      <form onSubmit={submit} className="flex flex-wrap items-end gap-2">
        <div className="flex flex-col gap-1">
          <Label htmlFor="invite-email">Email (opcional)</Label>
          <Input id="invite-email" type="email" value={email} onChange={(event) => setEmail(event.target.value)} placeholder="solo para este email" />
        </div>
        <Button type="submit" variant="secondary" loading={create.isPending}>
          Crear invitación
        </Button>
      </form>
      {create.isError && <Alert>{messageOf(create.error)}</Alert>}
      {invite && (
        <div className="rounded-lg border border-teal-400/40 p-3 text-sm">
          <Label htmlFor="invite-url">Enlace de invitación</Label>
          <Input id="invite-url" readOnly value={invite.url} onFocus={(event) => event.target.select()} />
          <p className="mt-1 text-slate-400">
            Caduca el {formatDateTime(invite.expiresAt)}
            {invite.email ? ` · solo para ${invite.email}` : ''}
          </p>
        </div>
      )}
    </section>
  );
}

export function SettingsPage() {
  usePageTitle('Ajustes · Administración');
  const settings = useSettings();
  return (
    <section className="flex flex-col gap-8">
      <h2 className="text-xl font-semibold">Ajustes</h2>
      {settings.isPending ? (
        <BarLoader label="Cargando ajustes" />
      ) : settings.isError ? (
        <Alert>{messageOf(settings.error)}</Alert>
      ) : (
        <SettingsForm
          signup={settings.data.signupFromEnvironment ?? settings.data.signup}
          blockedDomains={settings.data.blockedDomains}
          fromEnv={settings.data.signupFromEnvironment}
        />
      )}
      <Invites />
    </section>
  );
}
