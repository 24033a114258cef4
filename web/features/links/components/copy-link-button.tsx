import { Check, Copy } from 'lucide-react';
import { Button, type ButtonProps } from '../../../components/ui/button';
import { useCopy } from '../../../components/ui/use-copy';

type CopyLinkButtonProps = { shortLink: string } & Pick<ButtonProps, 'size' | 'variant' | 'className'>;

/** Copies the short address; a check mark confirms it for 2 seconds. */
export function CopyLinkButton({ shortLink, size = 'icon', variant = 'outline', className }: CopyLinkButtonProps) {
  const { copied, copy: copyText } = useCopy();
  const copy = async () => {
    const copiedNow = await copyText(shortLink);
    if (!copiedNow.ok) console.error('Failed to copy URL:', copiedNow.error);
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
