import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from '../../api/client';

/**
 * Puts the server's per-field messages (e.g. an e-mail already taken) under the fields themselves.
 * With `fields`, only those: a message for a field the form does not show would have nowhere to go.
 */
export function applyServerFields<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields?: readonly Path<T>[],
): void {
  if (!(error instanceof ApiError)) return;
  for (const [field, messages] of Object.entries(error.fields)) {
    if (!messages.length || (fields && !fields.includes(field as Path<T>))) continue;
    const types = Object.fromEntries(messages.map((message, index) => [`server${index}`, message]));
    setError(field as Path<T>, { type: 'server', message: messages[0], types });
  }
}
