/** An error as a database thread sends it back: its message, and the driver's code when it has one. */
export function workerErrorFields(error: unknown): { message: string; code: string | undefined } {
  const { message, code } = (error ?? {}) as { message?: string; code?: unknown };
  return { message: String(message ?? error), code: typeof code === 'string' ? code : undefined };
}
