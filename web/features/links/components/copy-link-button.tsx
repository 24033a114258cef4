import { COPY_CONFIRMATION_MS } from '@common/constants';
import { Check, Copy } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button, type ButtonProps } from '../../../components/ui/button';

type CopyLinkButtonProps = { shortLink: string } & Pick<ButtonProps, 'size' | 'variant' | 'className'>;

/** Copies the short address; a check mark confirms it for 2 seconds. */
export function CopyLinkButton({ shortLink, size = 'icon', variant = 'outline', className }: CopyLinkButtonProps) {
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPY_CONFIRMATION_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(shortLink);
      setCopied(true);
    } catch (error) {
      console.error('Failed to copy URL:', error);
      setCopied(false);
    }
  };

  return (
    <Button
      size={size}
      variant={variant}
      className={className}
      onClick={copy}
      aria-label={copied ? 'Dirección copiada' : 'Copiar dirección corta'}
      title={copied ? 'Copiado' : 'Copiar'}
    >
      {copied ? <Check aria-hidden className="text-teal-300" /> : <Copy aria-hidden />}
      {size !== 'icon' && (copied ? 'Copiado' : 'Copiar')}
    </Button>
  );
}
