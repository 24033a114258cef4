import { QR_PREVIEW_SIZE } from '@common/constants';
import { useEffect, useState } from 'react';

/** A QR drawn in the browser at the spec's preview size; the stored one is made by the server. */
export function QrPreview({ text, label }: { text: string; label: string }) {
  const [dataUrl, setDataUrl] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    // Loaded on first use: the QR encoder is only needed once the dialog has a URL.
    import('qrcode')
      .then((qrcode) => qrcode.toDataURL(text, { width: QR_PREVIEW_SIZE, margin: 2, errorCorrectionLevel: 'M' }))
      .then((url) => current && setDataUrl(url))
      .catch((error: unknown) => console.error('Error generating QR code:', error));
    return () => {
      current = false;
    };
  }, [text]);

  return (
    <div className="flex justify-center">
      {dataUrl ? (
        <img src={dataUrl} alt={label} width={QR_PREVIEW_SIZE} height={QR_PREVIEW_SIZE} className="rounded-md bg-white" />
      ) : (
        <div aria-hidden className="rounded-md bg-slate-800" style={{ width: QR_PREVIEW_SIZE, height: QR_PREVIEW_SIZE }} />
      )}
    </div>
  );
}
