import { type ComponentProps, useEffect, useState } from 'react';
import { cn } from '../../lib/cn';
import { buttonVariants } from './button';
import { fieldErrorId } from './field-error';

type FilePickerProps = Omit<ComponentProps<'input'>, 'type' | 'className' | 'id'> & {
  id: string;
  /** The file chosen, if any: its name shows beside the button. */
  file: File | undefined;
  /** The button's words («Elegir imagen», «Elegir archivo»). */
  buttonLabel: string;
  /** What shows while nothing is chosen («Sin imagen elegida»). */
  emptyLabel: string;
  invalid?: boolean;
};

/**
 * A file input in Spanish whatever the browser's language («Choose File» otherwise), as wide as
 * its line allows: the real input stays in the page for the keyboard and screen readers, its look
 * is the label's, and the file's name wraps under the button on a phone rather than widening it.
 */
export function FilePicker({ id, file, buttonLabel, emptyLabel, invalid = false, ...input }: FilePickerProps) {
  return (
    <div className="flex min-w-0 flex-1 flex-wrap items-center gap-x-3 gap-y-1">
      <input
        id={id}
        type="file"
        className="peer sr-only"
        aria-invalid={invalid || undefined}
        aria-describedby={`${id}-name ${fieldErrorId(id)}`}
        {...input}
      />
      <label
        htmlFor={id}
        aria-hidden
        className={cn(
          buttonVariants({ variant: 'outline', size: 'sm' }),
          'cursor-pointer peer-focus-visible:outline-2 peer-focus-visible:outline-teal-300',
          invalid && 'border-red-400',
        )}
      >
        {buttonLabel}
      </label>
      {/* Only a file name longer than the whole line is cut. */}
      <span id={`${id}-name`} className="max-w-full truncate text-sm text-slate-300">
        {file ? file.name : emptyLabel}
      </span>
    </div>
  );
}

/** A data: address of an image the user chose, to preview it before it is sent; undefined until read. */
export function useImagePreview(file: File | undefined): string | undefined {
  const [loaded, setLoaded] = useState<{ file: File; url: string }>();
  useEffect(() => {
    if (!file || !file.type.startsWith('image/')) return;
    // A data: address rather than an object URL: nothing to revoke, so StrictMode's double effects are harmless.
    const reader = new FileReader();
    reader.onload = () => typeof reader.result === 'string' && setLoaded({ file, url: reader.result });
    reader.readAsDataURL(file);
    return () => reader.abort();
  }, [file]);
  return loaded && loaded.file === file ? loaded.url : undefined;
}
