import { linkMessages } from '@common/links/link-messages';
import { aliasProblems } from '@common/links/link-schemas';
import { qrAddressOf } from '@common/links/qr-options';
import { emptyUtm, type UtmValues } from '@common/links/utm';
import { errorMessages } from '@common/messages';
import { QR_PREVIEW_PATH } from '@common/reserved-paths';
import { zodResolver } from '@hookform/resolvers/zod';
import { useIsMutating, useQueryClient } from '@tanstack/react-query';
import { type RefObject, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { ApiError } from '../../../api/client';
import { CREATE_NEW_PARAM, returnAfterSignIn } from '../../auth/auth-paths';
import { messagesOf } from '../../../components/form/field-messages';
import { FormAlert } from '../../../components/form/form-alert';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../../components/ui/dialog';
import { fieldErrorId } from '../../../components/ui/field-error';
import { createLinkMutationKey, newIdempotencyKey, useCreateLink } from '../api/create-link';
import { linkKeys } from '../api/link-keys';
import { LinkFields, linkFields } from './link-fields';
import { QrPreview } from './qr-preview';
import { finalUrlOf, ForwardQueryField, UtmBuilder } from './utm-builder';
import { type CreateLinkForm as CreateLinkFormValues, type CreateLinkFormInput, createLinkFormSchema } from './tags-field';
import { applyServerFields } from '../../../components/form/apply-server-fields';
import { useWorkspaceScope } from '../../workspaces/current-workspace';
import { workspaceLinkPath } from '../../workspaces/workspace-path';
import { useDomains } from '../../domains/api/domains';
import { linkDomainOptions, shortAddressBase } from '../../domains/domain-choices';
import { DomainField } from './domain-field';

type CreateLinkDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The long URL to start with (the createNew query parameter). */
  initialLongUrl: string;
  /** PUBLIC_BASE_URL: short addresses are built on it. */
  publicBaseUrl: string;
  /** The button that opens it: focus goes back there on closing. */
  returnFocusTo?: RefObject<HTMLElement | null>;
};

// No answer came back, so the server may have created the link after all. The retry carries the
// same Idempotency-Key: it gets that link instead of making a second one.
const mayExist = 'Puede que el link se haya creado: pulsa «Crear» de nuevo para comprobarlo, no se duplicará.';

// The fields whose server messages have a place under them.
const fields = [...linkFields, 'domain'] as const;

export function CreateLinkDialog({ open, onOpenChange, initialLongUrl, publicBaseUrl, returnFocusTo }: CreateLinkDialogProps) {
  // While a creation is on its way the dialog stays: closed, it would hide whether the link was made.
  const creating = useIsMutating({ mutationKey: createLinkMutationKey }) > 0;
  return (
    <Dialog open={open} onOpenChange={(next) => (next || !creating) && onOpenChange(next)}>
      <DialogContent className="max-w-xl" returnFocusTo={returnFocusTo} dismissible={!creating}>
        <DialogHeader>
          <DialogTitle>Crear link</DialogTitle>
          <DialogDescription>Un nombre, la dirección larga y, si quieres, tu propia dirección corta.</DialogDescription>
        </DialogHeader>
        {/* Mounted only while open, so every opening starts from a clean form. */}
        {open && <CreateLinkForm initialLongUrl={initialLongUrl} publicBaseUrl={publicBaseUrl} />}
      </DialogContent>
    </Dialog>
  );
}

function CreateLinkForm({ initialLongUrl, publicBaseUrl }: Pick<CreateLinkDialogProps, 'initialLongUrl' | 'publicBaseUrl'>) {
  const navigate = useNavigate();
  const scope = useWorkspaceScope();
  const queryClient = useQueryClient();
  const creation = useCreateLink();
  // One key per distinct request: the same data sent again is the same creation.
  const [attempt, setAttempt] = useState<{ body: string; key: string } | null>(null);
  const [utm, setUtm] = useState<UtmValues>(emptyUtm);
  const form = useForm<CreateLinkFormInput, unknown, CreateLinkFormValues>({
    resolver: zodResolver(createLinkFormSchema),
    criteriaMode: 'all',
    defaultValues: { title: '', longUrl: initialLongUrl, customUrl: '', tags: '', forwardQuery: false, domain: '' },
  });
  // The workspace's verified domains; none (or no answer) leaves the form as it was.
  const domainOptions = linkDomainOptions(useDomains().data);
  const domain = useWatch({ control: form.control, name: 'domain' }) ?? '';
  const base = shortAddressBase(publicBaseUrl, domainOptions.length > 0 ? domain : null);
  const { errors, isSubmitted } = form.formState;
  const typedUrl = useWatch({ control: form.control, name: 'longUrl' }) ?? '';
  const longUrl = typedUrl.trim();
  const alias = (useWatch({ control: form.control, name: 'customUrl' }) ?? '').trim();
  // The stored QR encodes the short address; until the server draws a code, the preview points at a
  // path nobody can claim. Encoded as the server will encode it (qrAddressOf, with ?qr=1).
  const chosen = alias !== '' && aliasProblems(alias.normalize('NFC')).length === 0;
  const previewText = qrAddressOf(`${base}/${chosen ? alias.normalize('NFC') : QR_PREVIEW_PATH}`);
  // The UTM builder's parameters go into the destination as it is sent.
  const withCampaign = (event: React.FormEvent<HTMLFormElement>) => {
    const merged = finalUrlOf(form.getValues('longUrl') ?? '', utm, emptyUtm);
    if (merged !== (form.getValues('longUrl') ?? '').trim()) form.setValue('longUrl', merged);
    return submit(event);
  };

  const submit = form.handleSubmit(
    (values) => {
      // null: the instance's own host.
      const input = { ...values, domain: values.domain || null };
      const body = JSON.stringify(input);
      const current = attempt?.body === body ? attempt : { body, key: newIdempotencyKey() };
      setAttempt(current);
      creation.mutate(
        { input, idempotencyKey: current.key },
        {
          onSuccess: (link) => navigate(workspaceLinkPath(scope, link.id)),
          onError: (error) => {
            if (!(error instanceof ApiError)) {
              form.setError('root.server', { message: linkMessages.createFailed });
              return;
            }
            if (error.status === 401) {
              // The session ended meanwhile: the guard sends the user to sign in, and the dialog
              // comes back afterwards with this long URL.
              returnAfterSignIn({ pathname: '/dashboard', search: `?${new URLSearchParams({ [CREATE_NEW_PARAM]: input.longUrl })}` });
              return;
            }
            if (error.unanswered) {
              // A link made after all shows in the list behind the dialog.
              void queryClient.invalidateQueries({ queryKey: linkKeys.lists() });
              form.setError('root.server', { message: `${error.message} ${mayExist}` });
              return;
            }
            applyServerFields(error, form.setError, fields);
            form.setError('root.server', {
              message: error.status >= 500 && error.code !== 'network' ? linkMessages.createFailed : error.message,
            });
          },
        },
      );
    },
    () => form.setError('root.server', { message: errorMessages.validation }),
  );

  const general = errors.root?.server?.message;
  const inputProps = (field: (typeof linkFields)[number]) => ({
    id: `link-${field}`,
    'aria-invalid': messagesOf(errors[field]).length > 0 || undefined,
    'aria-describedby': fieldErrorId(`link-${field}`),
    ...form.register(field, {
      // Once submitted, a fix clears the general message with the field's own.
      onChange: () => isSubmitted && form.clearErrors('root.server'),
    }),
  });

  return (
    <form noValidate onSubmit={withCampaign} className="grid gap-4">
      <LinkFields
        fieldProps={inputProps}
        errors={errors}
        publicBaseUrl={base}
        domainField={
          domainOptions.length > 0 && (
            <DomainField options={domainOptions} error={errors.domain} {...form.register('domain', { onChange: () => isSubmitted && form.clearErrors('root.server') })} />
          )
        }
      />
      <UtmBuilder values={utm} onChange={setUtm} initial={emptyUtm} longUrl={typedUrl} />
      <ForwardQueryField {...form.register('forwardQuery')} />
      {longUrl !== '' && (
        <figure className="grid gap-2">
          <QrPreview text={previewText} label="Vista previa del código QR" />
          <figcaption className="text-center text-xs text-slate-400">
            {chosen
              ? 'Vista previa: el QR llevará a tu dirección corta.'
              : 'Vista previa: no lleva a ningún sitio todavía. El QR definitivo llevará a la dirección corta que se asigne al crear el link.'}
          </figcaption>
        </figure>
      )}
      {/* Beside the button: a failure that belongs to no field is seen where «Crear» was pressed. */}
      <FormAlert message={general} />
      <div className="flex flex-wrap items-center justify-end gap-3">
        <p role="status" className="text-sm text-slate-300">
          {creation.isPending ? 'Creando el link… La ventana se podrá cerrar cuando termine.' : ''}
        </p>
        <Button type="submit" loading={creation.isPending}>
          Crear
        </Button>
      </div>
    </form>
  );
}
