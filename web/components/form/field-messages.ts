import type { FieldError } from 'react-hook-form';

/**
 * Every message of a field. With criteriaMode 'all', react-hook-form keeps them in `types`
 * (one entry per kind of check, an array when a kind failed twice); `message` is only the first.
 */
export function messagesOf(error: FieldError | undefined): string[] {
  if (!error) return [];
  const all: string[] = [];
  for (const value of Object.values(error.types ?? {})) {
    if (typeof value === 'string') all.push(value);
    else if (Array.isArray(value)) all.push(...value.filter((item): item is string => typeof item === 'string'));
  }
  if (all.length === 0 && error.message) all.push(error.message);
  return [...new Set(all)];
}
