import { useEffect, useRef } from 'react';
import { Alert } from '../ui/alert';

/**
 * A failure that belongs to no field («No se pudo conectar con el servidor…», a quota): placed
 * beside the form's button, where the eye is after pressing it, and scrolled into view in a long
 * dialog or page, so a press never seems to do nothing. Read out at once (role="alert").
 */
export function FormAlert({ message, className }: { message: string | undefined; className?: string }) {
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (message) ref.current?.scrollIntoView?.({ block: 'nearest' });
  }, [message]);
  if (!message) return null;
  return (
    <Alert ref={ref} className={className}>
      {message}
    </Alert>
  );
}
