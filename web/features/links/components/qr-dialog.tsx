import {
  eccLabels,
  QR_DEFAULT_MARGIN,
  QR_DEFAULT_SIZE,
  QR_MAX_MARGIN,
  QR_MAX_SIZE,
  QR_MIN_SIZE,
  qrEccLevels,
  qrFileName,
  type QrFormat,
  qrFormats,
  qrMessages as m,
  qrQuerySchema,
} from '@common/links/qr-options';
import { QrCode } from 'lucide-react';
import { type ReactNode, useId, useMemo, useState } from 'react';
import { Button, buttonVariants, type ButtonProps } from '../../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '../../../components/ui/dialog';
import { FieldError, fieldErrorId } from '../../../components/ui/field-error';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { useDebouncedValue } from './use-debounced-value';
import { useWorkspaceScope } from '../../workspaces/current-workspace';
import { withWorkspace, type WorkspaceScope } from '../../workspaces/workspace-path';

type QrDialogProps = { linkId: number; title: string } & Pick<ButtonProps, 'size'>;

interface QrChoices {
  format: QrFormat;
  size: string;
  margin: string;
  color: string;
  background: string;
  ecc: (typeof qrEccLevels)[number];
}

const defaults: QrChoices = {
  format: 'png',
  size: String(QR_DEFAULT_SIZE),
  margin: String(QR_DEFAULT_MARGIN),
  color: '#000000',
  background: '#ffffff',
  ecc: 'M',
};

const PREVIEW_DELAY_MS = 300;
const selectClass =
  'h-10 rounded-lg border border-slate-700 bg-slate-900 px-3 text-sm text-slate-100 focus-visible:outline-2 focus-visible:outline-teal-300';

/** The address of the link's QR with these choices (GET /api/links/:id/qr). */
export function qrImagePath(linkId: number, choices: QrChoices, scope: WorkspaceScope = null): string {
  return withWorkspace(`/api/links/${linkId}/qr?${new URLSearchParams({ ...choices })}`, scope);
}

/** 'Código QR' on the detail page: a printable QR made to order, previewed live, downloaded by name. */
export function QrDialog({ linkId, title, size = 'default' }: QrDialogProps) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button size={size} variant="outline" aria-label={m.open} title={m.open}>
          <QrCode aria-hidden />
          {size !== 'icon' && m.open}
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>{m.dialogTitle}</DialogTitle>
          <DialogDescription>{m.scansNote}</DialogDescription>
        </DialogHeader>
        {open && <QrDesigner linkId={linkId} title={title} />}
      </DialogContent>
    </Dialog>
  );
}

/**
 * A label, its input, its messages: three rows of the grid it sits in (a subgrid), so side by side
 * the labels share a row (one wrapping on a phone moves both inputs alike) and a message under one
 * input never moves its neighbour.
 */
function Field({ id, label, messages, children }: { id: string; label: string; messages: string[]; children: ReactNode }) {
  return (
    <div className="row-span-3 grid grid-rows-subgrid content-start gap-y-1">
      <Label htmlFor={id}>{label}</Label>
      {children}
      <FieldError fieldId={id} messages={messages} />
    </div>
  );
}

function QrDesigner({ linkId, title }: { linkId: number; title: string }) {
  const scope = useWorkspaceScope();
  const [choices, setChoices] = useState<QrChoices>(defaults);
  const id = useId();
  const set = <K extends keyof QrChoices>(key: K) => (value: QrChoices[K]) => setChoices((current) => ({ ...current, [key]: value }));
  // The same rules as the server's, so a choice it would refuse is explained here instead of asked for.
  const checked = useMemo(() => qrQuerySchema.safeParse(choices), [choices]);
  const messagesOf = (field: keyof QrChoices) =>
    checked.success ? [] : checked.error.issues.filter((issue) => issue.path[0] === field).map((issue) => issue.message);
  const path = checked.success ? qrImagePath(linkId, choices, scope) : undefined;
  const preview = useDebouncedValue(path, PREVIEW_DELAY_MS);
  const [failed, setFailed] = useState<string | undefined>();
  const wiring = (field: keyof QrChoices) => ({
    id: `${id}-${field}`,
    'aria-invalid': messagesOf(field).length > 0 || undefined,
    'aria-describedby': fieldErrorId(`${id}-${field}`),
  });

  return (
    <div className="grid gap-6 sm:grid-cols-[1fr_auto]">
      <div className="grid content-start gap-3">
        <div className="grid grid-cols-2 gap-3">
          <Field id={`${id}-format`} label={m.formatLabel} messages={messagesOf('format')}>
            <select {...wiring('format')} value={choices.format} onChange={(e) => set('format')(e.target.value as QrFormat)} className={selectClass}>
              {qrFormats.map((format) => (
                <option key={format} value={format}>
                  {format.toUpperCase()}
                </option>
              ))}
            </select>
          </Field>
          <Field id={`${id}-ecc`} label={m.eccLabel} messages={messagesOf('ecc')}>
            <select {...wiring('ecc')} value={choices.ecc} onChange={(e) => set('ecc')(e.target.value as QrChoices['ecc'])} className={selectClass}>
              {qrEccLevels.map((level) => (
                <option key={level} value={level}>
                  {eccLabels[level]}
                </option>
              ))}
            </select>
          </Field>
          <Field id={`${id}-size`} label={m.sizeLabel} messages={messagesOf('size')}>
            <Input {...wiring('size')} type="number" inputMode="numeric" min={QR_MIN_SIZE} max={QR_MAX_SIZE} step={1} value={choices.size} onChange={(e) => set('size')(e.target.value)} />
          </Field>
          <Field id={`${id}-margin`} label={m.marginLabel} messages={messagesOf('margin')}>
            <Input {...wiring('margin')} type="number" inputMode="numeric" min={0} max={QR_MAX_MARGIN} step={1} value={choices.margin} onChange={(e) => set('margin')(e.target.value)} />
          </Field>
          <Field id={`${id}-color`} label={m.colorLabel} messages={messagesOf('color')}>
            <input {...wiring('color')} type="color" value={choices.color} onChange={(e) => set('color')(e.target.value)} className="h-10 w-full rounded-lg border border-slate-700 bg-slate-900" />
          </Field>
          <Field id={`${id}-background`} label={m.backgroundLabel} messages={messagesOf('background')}>
            <input {...wiring('background')} type="color" value={choices.background} onChange={(e) => set('background')(e.target.value)} className="h-10 w-full rounded-lg border border-slate-700 bg-slate-900" />
          </Field>
        </div>
        {path ? (
          <a href={path} download={qrFileName(title, choices.format)} className={buttonVariants({ variant: 'default' })}>
            {m.download} {choices.format.toUpperCase()}
          </a>
        ) : (
          <Button disabled>{m.download}</Button>
        )}
      </div>
      <figure className="grid justify-items-center gap-2">
        {preview ? (
          <img
            key={preview}
            src={preview}
            alt={m.previewAlt}
            width={220}
            height={220}
            className="size-56 rounded-lg border border-slate-700 object-contain"
            onLoad={() => setFailed(undefined)}
            onError={() => setFailed(preview)}
          />
        ) : (
          <div aria-hidden className="size-56 rounded-lg bg-slate-800" />
        )}
        {failed === preview && preview && <figcaption className="text-sm text-red-300">{m.previewFailed}</figcaption>}
      </figure>
    </div>
  );
}
