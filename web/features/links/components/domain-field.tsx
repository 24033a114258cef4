import type { ComponentProps } from 'react';
import type { FieldError as FormFieldError } from 'react-hook-form';
import { messagesOf } from '../../../components/form/field-messages';
import { FieldError, fieldErrorId } from '../../../components/ui/field-error';
import { Label } from '../../../components/ui/label';
import type { DomainOption } from '../../domains/domain-choices';

/** «Dominio»: where the short address answers, the instance's own host first. */
export function DomainField({ options, error, ...select }: ComponentProps<'select'> & { options: DomainOption[]; error: FormFieldError | undefined }) {
  const messages = messagesOf(error);
  return (
    <div className="grid gap-2">
      <Label htmlFor="link-domain">Dominio</Label>
      <select
        id="link-domain"
        aria-invalid={messages.length > 0 || undefined}
        aria-describedby={fieldErrorId('link-domain')}
        className="h-10 w-full min-w-0 rounded-lg border border-slate-700 bg-slate-900 px-3 text-sm text-slate-100 focus-visible:border-teal-400 focus-visible:outline-2 focus-visible:outline-teal-400/60 aria-invalid:border-red-400"
        {...select}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <FieldError fieldId="link-domain" messages={messages} />
    </div>
  );
}
