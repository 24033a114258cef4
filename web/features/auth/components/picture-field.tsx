import { useEffect, useState } from 'react';
import type { FieldError as HookFieldError, UseFormRegisterReturn } from 'react-hook-form';
import { Avatar, AvatarFallback, AvatarImage } from '../../../components/ui/avatar';
import { buttonVariants } from '../../../components/ui/button';
import { FieldError, fieldErrorId } from '../../../components/ui/field-error';
import { Label } from '../../../components/ui/label';
import { cn } from '../../../lib/cn';
import { messagesOf } from '../../../components/form/field-messages';

type PictureFieldProps = {
  id: string;
  files: FileList | undefined;
  error: HookFieldError | undefined;
  registration: UseFormRegisterReturn;
};

/** The picture input, in Spanish whatever the browser's language, with a preview of the chosen file. */
export function PictureField({ id, files, error, registration }: PictureFieldProps) {
  const messages = messagesOf(error);
  const file = files?.[0];
  const [loaded, setLoaded] = useState<{ file: File; url: string }>();
  useEffect(() => {
    if (!file || !file.type.startsWith('image/')) return;
    // A data: address rather than an object URL: nothing to revoke, so StrictMode's double effects are harmless.
    const reader = new FileReader();
    reader.onload = () => typeof reader.result === 'string' && setLoaded({ file, url: reader.result });
    reader.readAsDataURL(file);
    return () => reader.abort();
  }, [file]);
  const preview = loaded && loaded.file === file ? loaded.url : undefined;

  return (
    <div className="grid min-w-0 gap-2">
      <Label htmlFor={id}>Foto de perfil</Label>
      <div className="flex min-w-0 items-center gap-3">
        <Avatar className="size-12">
          {preview && <AvatarImage src={preview} alt="" />}
          <AvatarFallback aria-hidden className="bg-slate-800" />
        </Avatar>
        {/* Wraps rather than cuts: on a phone the file's name (or 'Sin imagen elegida') goes under the button. */}
        <div className="flex min-w-0 flex-1 flex-wrap items-center gap-x-3 gap-y-1">
          {/* The real input stays in the page for the keyboard and screen readers; its look is the label's. */}
          <input
            id={id}
            type="file"
            accept="image/png,image/jpeg,image/webp,image/gif"
            className="peer sr-only"
            aria-invalid={messages.length > 0 || undefined}
            aria-describedby={`${id}-name ${fieldErrorId(id)}`}
            {...registration}
          />
          <label
            htmlFor={id}
            aria-hidden
            className={cn(
              buttonVariants({ variant: 'outline', size: 'sm' }),
              'cursor-pointer peer-focus-visible:outline-2 peer-focus-visible:outline-teal-300',
              messages.length > 0 && 'border-red-400',
            )}
          >
            Elegir imagen
          </label>
          {/* Only a file name longer than the whole line is cut. */}
          <span id={`${id}-name`} className="max-w-full truncate text-sm text-slate-300">
            {file ? file.name : 'Sin imagen elegida'}
          </span>
        </div>
      </div>
      <FieldError fieldId={id} messages={messages} />
    </div>
  );
}
