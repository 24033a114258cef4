import { Download } from 'lucide-react';
import { Button, type ButtonProps } from '../../../components/ui/button';

type DownloadQrButtonProps = { qr: string; title: string } & Pick<ButtonProps, 'size' | 'variant' | 'className'>;

/** The QR's file name: the link's title (or 'link'), without characters file systems refuse. */
export function qrFileName(title: string): string {
  const printable = [...title].filter((char) => char >= ' ').join('');
  const safe = printable.replace(/[\\/:*?"<>|]+/g, ' ').trim();
  return `${safe || 'link'}.png`;
}

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
