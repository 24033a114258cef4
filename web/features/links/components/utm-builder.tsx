import { type UtmValues, utmFields, utmLabels, withUtm } from '@common/links/utm';
import type { ComponentProps } from 'react';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';

type UtmBuilderProps = {
  values: UtmValues;
  onChange: (values: UtmValues) => void;
  /** What the destination carried when the dialog opened (empty when creating): only changes apply. */
  initial: UtmValues;
  /** The destination as typed now. */
  longUrl: string;
};

/** The URL the link will lead to: the destination with the builder's changes merged in. */
export function finalUrlOf(longUrl: string, values: UtmValues, initial: UtmValues): string {
  return withUtm(longUrl.trim(), values, initial);
}

/**
 * The address as the link will store it (the URL standard's form: «boletín» as bolet%C3%ADn), the
 * same in the create and the edit dialog, though the edit dialog's field shows the readable form.
 */
function asSent(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}

/**
 * Campaign parameters (utm_source, utm_medium...) merged into the destination's own query, its
 * other parameters and its fragment left as they were, with the final URL shown as it is typed.
 */
export function UtmBuilder({ values, onChange, initial, longUrl }: UtmBuilderProps) {
  const finalUrl = asSent(finalUrlOf(longUrl, values, initial));
  return (
    <fieldset className="grid gap-3 rounded-lg border border-slate-700 p-4">
      <legend className="px-1 text-sm font-medium text-slate-200">Parámetros de campaña (UTM, opcional)</legend>
      <div className="grid gap-3 sm:grid-cols-2">
        {utmFields.map((field) => (
          <div key={field} className="grid gap-1">
            <Label htmlFor={`utm-${field}`}>{utmLabels[field]}</Label>
            <Input
              id={`utm-${field}`}
              autoComplete="off"
              value={values[field]}
              onChange={(event) => onChange({ ...values, [field]: event.target.value })}
            />
          </div>
        ))}
      </div>
      {longUrl.trim() !== '' && (
        <div className="grid gap-1">
          <span id="utm-final-label" className="text-sm text-slate-300">
            URL final
          </span>
          <output aria-labelledby="utm-final-label" className="rounded-md bg-slate-800 px-3 py-2 text-sm break-all text-teal-200">
            {finalUrl}
          </output>
        </div>
      )}
    </fieldset>
  );
}

/** 'Reenviar los parámetros de la visita': the link's forwardQuery. */
export function ForwardQueryField(props: ComponentProps<'input'>) {
  return (
    <div className="flex items-start gap-2">
      <input {...props} id="link-forwardQuery" type="checkbox" className="mt-1 size-4 accent-teal-400" />
      <Label htmlFor="link-forwardQuery">
        Reenviar los parámetros de la visita al destino (lo que vaya tras «?» en la dirección corta, salvo qr)
      </Label>
    </div>
  );
}
