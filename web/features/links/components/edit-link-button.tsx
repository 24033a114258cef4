import { linkMessages } from '@common/links/link-messages';
import type { Link } from '@common/links/link-schemas';
import { errorMessages } from '@common/messages';
import { zodResolver } from '@hookform/resolvers/zod';
import { Pencil } from 'lucide-react';
import { type ComponentProps, useMemo, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { ApiError } from '../../../api/client';
import { messagesOf } from '../../../components/form/field-messages';
import { FormAlert } from '../../../components/form/form-alert';
import { Button, type ButtonProps } from '../../../components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '../../../components/ui/dialog';
import { FieldError, fieldErrorId } from '../../../components/ui/field-error';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { toast } from '../../../components/ui/toaster';
import { useUpdateLink } from '../api/update-link';
import {
  changesOf,
  editFormDefaults,
  type EditLinkForm,
  type EditLinkFormInput,
  editLinkFormSchema,
} from './edit-link-form-schema';
import { LinkFields } from './link-fields';
import { DisabledNotice } from './link-state';
import { finalUrlOf, ForwardQueryField, UtmBuilder } from './utm-builder';
import { type UtmValues, utmOf } from '@common/links/utm';
import { applyServerFields } from '../../../components/form/apply-server-fields';
import { useDomains } from '../../domains/api/domains';
import { linkDomainOf, linkDomainOptions, shortAddressBase } from '../../domains/domain-choices';
import { DomainField } from './domain-field';

type EditLinkButtonProps = { link: Link } & Pick<ButtonProps, 'size' | 'className'>;

const formFields = ['title', 'longUrl', 'customUrl', 'tags', 'domain', 'paused', 'forwardQuery', 'expiresAt', 'maxClicks', 'password', 'removePassword'] as const;
type FormField = (typeof formFields)[number];

/** 'Editar': the creation dialog's fields plus pause, expiry (date and click limit) and password. */
export function EditLinkButton({ link, size = 'icon', className }: EditLinkButtonProps) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button size={size} variant="outline" className={className} aria-label="Editar link" title="Editar">
          <Pencil aria-hidden />
          {size !== 'icon' && 'Editar'}
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-xl">
        <DialogHeader>
          <DialogTitle>Editar link</DialogTitle>
          <DialogDescription>
            {link.disabledCause === 'operator'
              ? 'Este link está desactivado por quien administra el servidor.'
              : 'La dirección corta, el código QR y las estadísticas se conservan.'}
          </DialogDescription>
        </DialogHeader>
        {/* The operator's decision cannot be edited away: the dialog says so instead of a form. */}
        {open && link.disabledCause === 'operator' && (
          <div className="grid gap-4">
            <DisabledNotice link={link} />
            <div className="flex justify-end">
              <DialogClose asChild>
                <Button variant="outline">Cerrar</Button>
              </DialogClose>
            </div>
          </div>
        )}
        {/* Mounted only while open, so every opening starts from the link as it is now. */}
        {open && link.disabledCause !== 'operator' && <EditLinkForm link={link} onSaved={() => setOpen(false)} />}
      </DialogContent>
    </Dialog>
  );
}

function EditLinkForm({ link, onSaved }: { link: Link; onSaved: () => void }) {
  const update = useUpdateLink();
  const defaults = useMemo(() => editFormDefaults(link), [link]);
  const schema = useMemo(() => editLinkFormSchema(defaults.expiresAt), [defaults.expiresAt]);
  const form = useForm<EditLinkFormInput, unknown, EditLinkForm>({ resolver: zodResolver(schema), criteriaMode: 'all', defaultValues: defaults });
  const { errors, isSubmitted } = form.formState;
  // The address's start follows the «Dominio» select: the instance's own, or https://{domain}.
  const domains = useDomains().data;
  const domainOptions = linkDomainOptions(domains, linkDomainOf(link));
  const chosenDomain = useWatch({ control: form.control, name: 'domain' }) ?? '';
  const ownBase = link.shortLink.slice(0, link.shortLink.lastIndexOf('/'));
  const instanceBase = linkDomainOf(link) === null ? ownBase : domains ? `${window.location.protocol}//${domains.instanceHost}` : window.location.origin;
  const publicBaseUrl = domainOptions.length > 0 ? shortAddressBase(instanceBase, chosenDomain || null) : ownBase;
  // The builder starts from the campaign the destination carries; only what is changed applies.
  const initialUtm = useMemo(() => utmOf(link.originalUrl), [link.originalUrl]);
  const [utm, setUtm] = useState<UtmValues>(initialUtm);
  const typedUrl = useWatch({ control: form.control, name: 'longUrl' }) ?? '';

  const submit = form.handleSubmit(
    (values) => {
      update.mutate(
        { id: link.id, changes: changesOf(values, defaults.expiresAt, defaults.domain) },
        {
          onSuccess: () => {
            toast('Cambios guardados.', 'success');
            onSaved();
          },
          onError: (error) => {
            if (!(error instanceof ApiError)) {
              form.setError('root.server', { message: linkMessages.editFailed });
              return;
            }
            applyServerFields(error, form.setError, formFields);
            form.setError('root.server', {
              message: error.status >= 500 && error.code !== 'network' ? linkMessages.editFailed : error.message,
            });
          },
        },
      );
    },
    () => form.setError('root.server', { message: errorMessages.validation }),
  );
  const withCampaign = (event: React.FormEvent<HTMLFormElement>) => {
    const merged = finalUrlOf(form.getValues('longUrl') ?? '', utm, initialUtm);
    if (merged !== (form.getValues('longUrl') ?? '').trim()) form.setValue('longUrl', merged);
    return submit(event);
  };

  const inputProps = (field: FormField): ComponentProps<'input'> => ({
    id: `link-${field}`,
    'aria-invalid': messagesOf(errors[field]).length > 0 || undefined,
    'aria-describedby': fieldErrorId(`link-${field}`),
    ...form.register(field, { onChange: () => isSubmitted && form.clearErrors('root.server') }),
  });
  // A checkbox has no message of its own to point at.
  const checkboxProps = (field: 'paused' | 'removePassword'): ComponentProps<'input'> => ({
    id: `link-${field}`,
    type: 'checkbox',
    ...form.register(field),
  });
  const general = errors.root?.server?.message;

  return (
    <form noValidate onSubmit={withCampaign} className="grid gap-4">
      <DisabledNotice link={link} />
      <LinkFields
        fieldProps={inputProps}
        errors={errors}
        publicBaseUrl={publicBaseUrl}
        domainField={
          domainOptions.length > 0 && (
            <DomainField options={domainOptions} error={errors.domain} {...form.register('domain', { onChange: () => isSubmitted && form.clearErrors('root.server') })} />
          )
        }
      />
      <UtmBuilder values={utm} onChange={setUtm} initial={initialUtm} longUrl={typedUrl} />
      <ForwardQueryField {...form.register('forwardQuery')} />
      <fieldset className="grid gap-4 rounded-lg border border-slate-700 p-4">
        <legend className="px-1 text-sm font-medium text-slate-200">Disponibilidad</legend>
        <div className="flex items-center gap-2">
          <input {...checkboxProps('paused')} className="size-4 accent-teal-400" />
          <Label htmlFor="link-paused">En pausa (quien lo visite verá que no está disponible)</Label>
        </div>
        <div className="grid gap-2 sm:grid-cols-2">
          <div className="grid gap-2">
            <Label htmlFor="link-expiresAt">Caduca el (opcional)</Label>
            <Input {...inputProps('expiresAt')} type="datetime-local" />
            <FieldError fieldId="link-expiresAt" messages={messagesOf(errors.expiresAt)} />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="link-maxClicks">Límite de clics (opcional)</Label>
            <Input {...inputProps('maxClicks')} inputMode="numeric" autoComplete="off" placeholder="Sin límite" />
            <FieldError fieldId="link-maxClicks" messages={messagesOf(errors.maxClicks)} />
          </div>
        </div>
      </fieldset>
      <fieldset className="grid gap-2 rounded-lg border border-slate-700 p-4">
        <legend className="px-1 text-sm font-medium text-slate-200">Contraseña</legend>
        <Label htmlFor="link-password">{link.hasPassword ? 'Nueva contraseña (déjala vacía para no cambiarla)' : 'Contraseña para abrir el link (opcional)'}</Label>
        <Input {...inputProps('password')} type="password" autoComplete="new-password" />
        <FieldError fieldId="link-password" messages={messagesOf(errors.password)} />
        {link.hasPassword && (
          <div className="flex items-center gap-2">
            <input {...checkboxProps('removePassword')} className="size-4 accent-teal-400" />
            <Label htmlFor="link-removePassword">Quitar la contraseña</Label>
          </div>
        )}
      </fieldset>
      {/* Beside the button: a failure that belongs to no field is seen where «Guardar» was pressed. */}
      <FormAlert message={general} />
      <div className="flex flex-wrap items-center justify-end gap-3">
        <p role="status" className="text-sm text-slate-300">
          {update.isPending ? 'Guardando…' : ''}
        </p>
        <Button type="submit" loading={update.isPending}>
          Guardar
        </Button>
      </div>
    </form>
  );
}
