import { cn } from '../../lib/cn';

/** The id FieldError renders with, to put in the field's aria-describedby. */
export function fieldErrorId(fieldId: string) {
  return `${fieldId}-error`;
}

type FieldErrorProps = {
  /** The id of the input these messages describe. */
  fieldId: string;
  /** Every message that applies to the field; nothing renders when empty. */
  messages?: readonly string[] | string;
  className?: string;
};

/**
 * Shows all of a field's messages at once. Wire the input with
 * aria-describedby={fieldErrorId(id)} and aria-invalid when messages exist.
 */
export function FieldError({ fieldId, messages, className }: FieldErrorProps) {
  const list = typeof messages === 'string' ? [messages] : (messages ?? []);
  // The live region stays mounted so newly added messages are announced.
  return (
    <div id={fieldErrorId(fieldId)} aria-live="polite" className={cn(list.length === 0 && 'hidden', className)}>
      {list.length > 0 && (
        <ul className="space-y-1 text-sm text-red-300">
          {list.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
