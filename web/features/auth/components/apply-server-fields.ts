import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from '../../../api/client';

/** Puts the server's per-field messages (e.g. an e-mail already taken) under the fields themselves. */
export function applyServerFields<T extends FieldValues>(error: unknown, setError: UseFormSetError<T>): void {
  if (!(error instanceof ApiError)) return;
  for (const [field, messages] of Object.entries(error.fields)) {
    const types = Object.fromEntries(messages.map((message, index) => [`server${index}`, message]));
    setError(field as Path<T>, { type: 'server', message: messages[0], types });
  }
}
