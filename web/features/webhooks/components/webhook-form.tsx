import { type CreateWebhookInput, createWebhookSchema, type Webhook, type WebhookEvent, webhookEvents } from '@common/webhooks/webhook-schemas';
import { webhookEventLabels } from '@common/webhooks/webhook-messages';
import { type FormEvent, useId, useState } from 'react';
import { ApiError, messageOf } from '../../../api/client';
import { FormAlert } from '../../../components/form/form-alert';
import { Button } from '../../../components/ui/button';
import { FieldError, fieldErrorId } from '../../../components/ui/field-error';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { LinkPicker, type PickedLink } from './link-picker';

type Field = 'url' | 'events' | 'links';

/**
 * The receiver's URL, its events and, optionally, the links whose events it gets: checked here with
 * the server's own schema, the server's refusals under the field they concern.
 */
export function WebhookForm({
  initial,
  submitLabel,
  pending,
  onSubmit,
  onCancel,
}: {
  initial?: Webhook;
  submitLabel: string;
  pending: boolean;
  /** Rejects with the server's refusal, shown here. */
  onSubmit: (input: CreateWebhookInput) => Promise<unknown>;
  onCancel?: () => void;
}) {
  const id = useId();
  const [url, setUrl] = useState(initial?.url ?? '');
  const [events, setEvents] = useState<WebhookEvent[]>(initial?.events ?? ['link.clicked']);
  const [links, setLinks] = useState<PickedLink[]>(initial?.links.map((linkId) => ({ id: linkId, title: `Link n.º ${linkId}` })) ?? []);
  const [errors, setErrors] = useState<Partial<Record<Field, string[]>>>({});
  const [failure, setFailure] = useState<string>();

  const toggle = (event: WebhookEvent, on: boolean) => setEvents((chosen) => (on ? [...chosen, event] : chosen.filter((known) => known !== event)));

  const submit = async (formEvent: FormEvent) => {
    formEvent.preventDefault();
    setFailure(undefined);
    const parsed = createWebhookSchema.safeParse({ url, events, links: links.map((link) => link.id) });
    if (!parsed.success) {
      const found: Partial<Record<Field, string[]>> = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as Field;
        (found[field] ??= []).push(issue.message);
      }
      setErrors(found);
      document.getElementById(`${id}-${Object.keys(found)[0]}`)?.focus();
      return;
    }
    setErrors({});
    try {
      await onSubmit({ url, events, links: links.map((link) => link.id) });
    } catch (error) {
      if (error instanceof ApiError && error.status >= 400 && error.status < 500) {
        const fields = error.fields as Partial<Record<Field, string[]>>;
        const known = (['url', 'events', 'links'] as const).filter((field) => fields[field]?.length);
        if (known.length > 0) {
          setErrors(Object.fromEntries(known.map((field) => [field, fields[field]!])));
          document.getElementById(`${id}-${known[0]}`)?.focus();
          return;
        }
      }
      setFailure(messageOf(error));
    }
  };

  return (
    <form noValidate onSubmit={submit} aria-label={submitLabel} className="grid gap-4">
      <div className="grid gap-2">
        <Label htmlFor={`${id}-url`}>URL que recibirá los avisos</Label>
        <Input
          id={`${id}-url`}
          value={url}
          onChange={(event) => setUrl(event.target.value)}
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          placeholder="https://crm.empresa.es/corto"
          aria-invalid={errors.url ? true : undefined}
          aria-describedby={fieldErrorId(`${id}-url`)}
        />
        <FieldError fieldId={`${id}-url`} messages={errors.url ?? []} />
      </div>
      <fieldset className="grid gap-2" aria-describedby={fieldErrorId(`${id}-events`)}>
        <legend className="mb-1 text-sm font-medium">Eventos</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {webhookEvents.map((event, index) => (
            <label key={event} className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                id={index === 0 ? `${id}-events` : undefined}
                className="size-4 accent-teal-400"
                checked={events.includes(event)}
                onChange={(change) => toggle(event, change.target.checked)}
              />
              {webhookEventLabels[event]}
            </label>
          ))}
        </div>
        <FieldError fieldId={`${id}-events`} messages={errors.events ?? []} />
      </fieldset>
      <LinkPicker inputId={`${id}-links`} picked={links} onChange={setLinks} errors={errors.links ?? []} />
      <FormAlert message={failure} />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" loading={pending}>
          {submitLabel}
        </Button>
        {onCancel && (
          <Button type="button" variant="outline" onClick={onCancel}>
            Cancelar
          </Button>
        )}
      </div>
    </form>
  );
}
