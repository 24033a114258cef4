import type { ComponentProps } from 'react';
import type { FieldError as HookFieldError } from 'react-hook-form';
import { FieldError, fieldErrorId } from '../ui/field-error';
import { Input } from '../ui/input';
import { Label } from '../ui/label';
import { messagesOf } from './field-messages';

type FormFieldProps = ComponentProps<typeof Input> & {
  id: string;
  label: string;
  error: HookFieldError | undefined;
};

/** A labelled input with all of its messages under it, wired for screen readers. */
export function FormField({ id, label, error, ...inputProps }: FormFieldProps) {
  const messages = messagesOf(error);
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        aria-invalid={messages.length > 0 || undefined}
        aria-describedby={fieldErrorId(id)}
        {...inputProps}
      />
      <FieldError fieldId={id} messages={messages} />
    </div>
  );
}
