import type { ComponentProps, ReactNode } from 'react';
import type { FieldError as FormFieldError } from 'react-hook-form';
import { messagesOf } from '../../../components/form/field-messages';
import { FieldError } from '../../../components/ui/field-error';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { readableUrl } from './link-format';

/** The fields a link is made of, shared by the create and edit dialogs. */
export const linkFields = ['title', 'longUrl', 'customUrl', 'tags'] as const;
export type LinkField = (typeof linkFields)[number];

type LinkFieldsProps = {
  /** The input's props for a field (id `link-{field}`, react-hook-form's register, aria wiring). */
  fieldProps: (field: LinkField) => ComponentProps<'input'>;
  errors: Partial<Record<LinkField, FormFieldError | undefined>>;
  /** Where the short address starts (PUBLIC_BASE_URL, or https://{domain}), shown before the alias. */
  publicBaseUrl: string;
  /** The «Dominio» select, when the workspace has domains to choose from: just before the alias. */
  domainField?: ReactNode;
};

/** Title, destination, alias and tags, with every message under its field: the same in both dialogs. */
export function LinkFields({ fieldProps, errors, publicBaseUrl, domainField }: LinkFieldsProps) {
  // In Unicode, without the scheme, nor the '/' the URL parser adds to a bare origin.
  const domain = readableUrl(publicBaseUrl).replace(/^https?:\/\//, '').replace(/\/$/, '');
  return (
    <>
      <div className="grid gap-2">
        <Label htmlFor="link-title">Nombre del link</Label>
        <Input {...fieldProps('title')} autoComplete="off" placeholder="Mi enlace" />
        <FieldError fieldId="link-title" messages={messagesOf(errors.title)} />
      </div>
      <div className="grid gap-2">
        <Label htmlFor="link-longUrl">URL original</Label>
        <Input {...fieldProps('longUrl')} type="url" inputMode="url" placeholder="https://ejemplo.com/una-direccion-larga" />
        <FieldError fieldId="link-longUrl" messages={messagesOf(errors.longUrl)} />
      </div>
      {domainField}
      <div className="grid gap-2">
        <Label htmlFor="link-customUrl">URL personalizada (opcional)</Label>
        <div className="flex items-stretch">
          <span className="flex max-w-[60%] shrink-0 items-center rounded-l-lg border border-r-0 border-slate-700 bg-slate-800 pl-3 text-sm text-slate-300">
            <span className="truncate">{domain}</span>
          </span>
          <span aria-hidden className="flex items-center border-y border-slate-700 bg-slate-800 px-1 text-slate-300">
            /
          </span>
          <Input {...fieldProps('customUrl')} autoComplete="off" placeholder="mi-link" className="min-w-0 flex-1 rounded-l-none" />
        </div>
        <FieldError fieldId="link-customUrl" messages={messagesOf(errors.customUrl)} />
      </div>
      <div className="grid gap-2">
        <Label htmlFor="link-tags">Etiquetas (opcional, separadas por comas)</Label>
        <Input {...fieldProps('tags')} autoComplete="off" placeholder="campaña, verano" />
        <FieldError fieldId="link-tags" messages={messagesOf(errors.tags)} />
      </div>
    </>
  );
}
