import { qrFileName } from '@common/links/qr-options';
import { Download } from 'lucide-react';
import { Button, type ButtonProps } from '../../../components/ui/button';

type DownloadQrButtonProps = { qr: string; title: string } & Pick<ButtonProps, 'size' | 'variant' | 'className'>;

export { qrFileName };

/** Downloads the stored QR PNG, named after the title. Same-origin, so the browser honours `download`. */
export function DownloadQrButton({ qr, title, size = 'icon', variant = 'outline', className }: DownloadQrButtonProps) {
  return (
    <Button asChild size={size} variant={variant} className={className}>
      <a href={qr} download={qrFileName(title)} aria-label="Descargar QR" title="Descargar QR">
        <Download aria-hidden />
        {size !== 'icon' && 'Descargar QR'}
      </a>
    </Button>
  );
}
