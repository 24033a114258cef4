import type { FieldError as HookFieldError, UseFormRegisterReturn } from 'react-hook-form';
import { Avatar, AvatarFallback, AvatarImage } from '../../../components/ui/avatar';
import { FieldError } from '../../../components/ui/field-error';
import { FilePicker, useImagePreview } from '../../../components/ui/file-picker';
import { Label } from '../../../components/ui/label';
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
  const preview = useImagePreview(file);

  return (
    <div className="grid min-w-0 gap-2">
      <Label htmlFor={id}>Foto de perfil</Label>
      <div className="flex min-w-0 items-center gap-3">
        <Avatar className="size-12">
          {preview && <AvatarImage src={preview} alt="" />}
          <AvatarFallback aria-hidden className="bg-slate-800" />
        </Avatar>
        <FilePicker
          id={id}
          file={file}
          buttonLabel="Elegir imagen"
          emptyLabel="Sin imagen elegida"
          accept="image/png,image/jpeg,image/webp,image/gif"
          invalid={messages.length > 0}
          {...registration}
        />
      </div>
      <FieldError fieldId={id} messages={messages} />
    </div>
  );
}
