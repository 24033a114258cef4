import { linkMessages } from '@common/links/link-messages';
import type { Link } from '@common/links/link-schemas';
import { errorMessages } from '@common/messages';
import { zodResolver } from '@hookform/resolvers/zod';
import { type ComponentProps, useEffect, useMemo, useRef, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { ApiError } from '../../../api/client';
import { messagesOf } from '../../../components/form/field-messages';
import { FormAlert } from '../../../components/form/form-alert';
import { Button } from '../../../components/ui/button';
import { FieldError, fieldErrorId } from '../../../components/ui/field-error';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { toast } from '../../../components/ui/toaster';
import { useUpdateLink } from '../api/update-link';
import {
  changesOf,
  editFormDefaults,
  type EditLinkForm as EditLinkFormValues,
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
import { AbTestSection } from './ab-test-section';
import { routingOf } from './link-routing';
import { ProbeBox } from './probe-box';
import { RedirectTypeField } from './redirect-type-field';
import { type RoutingDraft, routingChanges, routingDraftOf, withoutMessagesOf } from './routing-draft';
import { placeRoutingErrors, routingAreaIds, routingProblems } from './routing-errors';
import { RulesSection } from './rules-section';
import { PreviewSection } from './preview-section';

// The edit dialog's form, downloaded when a dialog first opens: the rules editor, its country
// names and the schemas it checks with stay out of the dashboard's and the detail page's code.

const formFields = [
  'title',
  'longUrl',
  'customUrl',
  'tags',
  'domain',
  'paused',
  'forwardQuery',
  'expiresAt',
  'maxClicks',
  'password',
  'removePassword',
  'previewTitle',
  'previewDescription',
] as const;
type FormField = (typeof formFields)[number];

export default function EditLinkForm({ link, onSaved }: { link: Link; onSaved: () => void }) {
  const update = useUpdateLink();
  const formRef = useRef<HTMLFormElement>(null);
  // The form's own fields take focus by themselves (react-hook-form); a rule's or a variant's is
  // found once its message is on screen.
  const focusFirstInvalid = () => setTimeout(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
  // Downloaded after the dialog opened, the form missed the dialog's first focus: it takes it now.
  useEffect(() => {
    if (!formRef.current?.contains(document.activeElement)) document.getElementById('link-title')?.focus();
  }, []);
  const defaults = useMemo(() => editFormDefaults(link), [link]);
  const schema = useMemo(() => editLinkFormSchema(defaults.expiresAt), [defaults.expiresAt]);
  const form = useForm<EditLinkFormInput, unknown, EditLinkFormValues>({ resolver: zodResolver(schema), criteriaMode: 'all', defaultValues: defaults });
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
  const [typedTitle, typedPreviewTitle, typedPreviewDescription] = useWatch({ control: form.control, name: ['title', 'previewTitle', 'previewDescription'] });
  // Rules, the A/B test and the status: edited beside the form, checked by the API's own schemas.
  const initialRouting = useMemo(() => routingDraftOf(routingOf(link)), [link]);
  const [routing, setRouting] = useState<RoutingDraft>(initialRouting);
  const [routingErrors, setRoutingErrors] = useState<Record<string, string[]>>({});
  const changeRouting = (change: Partial<RoutingDraft>, editedIds: string[]) => {
    setRouting((current) => ({ ...current, ...change }));
    setRoutingErrors((current) => withoutMessagesOf(current, editedIds));
    if (isSubmitted) form.clearErrors('root.server');
  };
  const changeRules = (rules: RoutingDraft['rules']) =>
    changeRouting({ rules }, [routingAreaIds.rules, ...rules.filter((rule) => !routing.rules.includes(rule)).map((rule) => `rule-${rule.id}`)]);
  // Weights move together: any change to the test may settle any of its messages.
  const changeVariants = (variants: RoutingDraft['variants']) =>
    changeRouting({ variants }, [routingAreaIds.variants, ...(routing.variants ?? []).map((variant) => `variant-${variant.id}`)]);

  const save = (values: EditLinkFormValues, routingMessages: Record<string, string[]>) => {
    if (Object.keys(routingMessages).length > 0) {
      form.setError('root.server', { message: errorMessages.validation });
      focusFirstInvalid();
      return;
    }
    update.mutate(
      { id: link.id, changes: { ...changesOf(values, defaults.expiresAt, defaults.domain, link.preview), ...routingChanges(routing, initialRouting) } },
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
          // The preview's words come back under 'preview': shown under its title.
          if (error.fields.preview) form.setError('previewTitle', { message: error.fields.preview.join(' ') });
          // 'rules.3.url', 'variants': under the rule's or the test's own fields.
          setRoutingErrors(placeRoutingErrors(error.fields, routing));
          form.setError('root.server', {
            message: error.status >= 500 && error.code !== 'network' ? linkMessages.editFailed : error.message,
          });
        },
      },
    );
  };
  const withCampaign = (event: React.FormEvent<HTMLFormElement>) => {
    const merged = finalUrlOf(form.getValues('longUrl') ?? '', utm, initialUtm);
    if (merged !== (form.getValues('longUrl') ?? '').trim()) form.setValue('longUrl', merged);
    // The rules and the test are checked with the form's fields, by the API's own schemas.
    const routingMessages = placeRoutingErrors(routingProblems(routing), routing);
    setRoutingErrors(routingMessages);
    return form.handleSubmit(
      (values) => save(values, routingMessages),
      () => form.setError('root.server', { message: errorMessages.validation }),
    )(event);
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
    <form ref={formRef} noValidate onSubmit={withCampaign} className="grid gap-4">
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
      <RulesSection
        rules={routing.rules}
        onChange={changeRules}
        errors={routingErrors}
        probe={<ProbeBox longUrl={typedUrl} rules={routing.rules} variants={routing.variants} />}
      />
      <AbTestSection variants={routing.variants} onChange={changeVariants} errors={routingErrors} longUrl={typedUrl} />
      <RedirectTypeField
        value={routing.redirectType}
        onChange={(redirectType) => changeRouting({ redirectType }, [routingAreaIds.redirectType])}
        messages={routingErrors[routingAreaIds.redirectType]}
      />
      <PreviewSection
        link={link}
        titleProps={inputProps('previewTitle')}
        descriptionProps={inputProps('previewDescription')}
        titleMessages={messagesOf(errors.previewTitle)}
        descriptionMessages={messagesOf(errors.previewDescription)}
        typedTitle={typedPreviewTitle ?? ''}
        typedDescription={typedPreviewDescription ?? ''}
        linkTitle={(typedTitle ?? '').trim()}
      />
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
