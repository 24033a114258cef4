// Which database errors mean "this data will never be accepted" (split the batch and drop the
// offending click) as opposed to "not now" (hold the batch and retry): only the first kind.

interface DriverError {
  code?: unknown;
}

export function isDataError(error: unknown): boolean {
  const code = (error as DriverError | null)?.code;
  if (typeof code !== 'string') return false;
  // SQLite: constraint, type mismatch, too big. PostgreSQL: classes 22 (data) and 23 (integrity).
  return (
    code.startsWith('SQLITE_CONSTRAINT') ||
    code === 'SQLITE_MISMATCH' ||
    code === 'SQLITE_TOOBIG' ||
    /^2[23][0-9A-Z]{3}$/.test(code)
  );
}
