import { type FormEvent, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ApiError, messageOf } from '../../api/client';
import { usePageTitle } from '../../app/use-page-title';
import { FormAlert } from '../../components/form/form-alert';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { sendReport } from './api/admin-api';

type Errors = Partial<Record<'address' | 'reason' | 'email', string[]>>;

/** 'Denunciar este link': anyone, signed in or not, tells the operator about an abusive link. */
export function ReportPage() {
  usePageTitle('Denunciar este link');
  const [params] = useSearchParams();
  const [address, setAddress] = useState(params.get('link') ?? '');
  const [reason, setReason] = useState('');
  const [email, setEmail] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string>();
  const [sent, setSent] = useState(false);
  const [sending, setSending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    setFailure(undefined);
    setSending(true);
    try {
      await sendReport({ address, reason, email });
      setSent(true);
    } catch (error) {
      if (error instanceof ApiError && Object.keys(error.fields).length > 0) setErrors(error.fields as Errors);
      else setFailure(messageOf(error));
    } finally {
      setSending(false);
    }
  };

  const fieldError = (name: keyof Errors) =>
    errors[name]?.length ? (
      <p id={`report-${name}-error`} className="text-sm text-red-300">
        {errors[name]!.join(' ')}
      </p>
    ) : null;
  const described = (name: keyof Errors) => (errors[name]?.length ? { 'aria-invalid': true, 'aria-describedby': `report-${name}-error` } : {});

  return (
    <section className="mx-auto flex max-w-lg flex-col gap-4">
      <h1 className="text-3xl font-bold tracking-tight">Denunciar este link</h1>
      {sent ? (
        <p role="status" className="rounded-lg border border-teal-400/40 bg-teal-950/40 px-3 py-2">
          Gracias. Hemos recibido tu denuncia y la revisaremos lo antes posible.
        </p>
      ) : (
        <>
          <p className="text-slate-300">
            Si un link de este servidor lleva a una estafa, a software malicioso o a contenido ilegal, cuéntanoslo. No hace falta tener cuenta.
          </p>
          <form noValidate onSubmit={(event) => void submit(event)} className="grid gap-4">
            <div className="grid gap-1">
              <Label htmlFor="report-address">Link que denuncias</Label>
              <Input id="report-address" value={address} onChange={(event) => setAddress(event.target.value)} placeholder="https://…/abc123" {...described('address')} />
              {fieldError('address')}
            </div>
            <div className="grid gap-1">
              <Label htmlFor="report-reason">Motivo</Label>
              <textarea
                id="report-reason"
                rows={5}
                value={reason}
                onChange={(event) => setReason(event.target.value)}
                className="rounded-lg border border-slate-700 bg-slate-900 p-3 text-sm"
                {...described('reason')}
              />
              {fieldError('reason')}
            </div>
            <div className="grid gap-1">
              <Label htmlFor="report-email">Tu email (opcional)</Label>
              <Input id="report-email" type="email" value={email} onChange={(event) => setEmail(event.target.value)} {...described('email')} />
              {fieldError('email')}
            </div>
            <FormAlert message={failure} />
            <Button type="submit" loading={sending}>
              Enviar denuncia
            </Button>
          </form>
        </>
      )}
    </section>
  );
}
