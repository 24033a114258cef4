import { ApiError } from '../../../api/client';

/** The sentence to show for a failed call: the server's Spanish message, or our fallback. */
export function serverErrorMessage(error: unknown, fallback: string): string | undefined {
  if (!error) return undefined;
  return error instanceof ApiError ? error.message : fallback;
}
