import { authMessages as m, PROFILE_IMAGE_MAX_BYTES, PROFILE_IMAGE_TYPES } from '@common/auth/auth-messages';
import type { User } from '@common/auth/auth-schemas';
import { type FormEvent, useState } from 'react';
import { ApiError } from '../../../api/client';
import { FieldError } from '../../../components/ui/field-error';
import { FilePicker, useImagePreview } from '../../../components/ui/file-picker';
import { Avatar, AvatarFallback, AvatarImage, initialsOf } from '../../../components/ui/avatar';
import { Button } from '../../../components/ui/button';
import { Label } from '../../../components/ui/label';
import { messageOf } from '../../../api/client';
import { useUpdatePicture } from '../api/profile';
import { Done, Section } from './section';

/** What the browser can tell before sending: the type it declares and the size (the server checks the bytes). */
function checkPicture(file: File | undefined): string[] {
  if (!file) return [m.profileImageRequired];
  const messages: string[] = [];
  if (!(PROFILE_IMAGE_TYPES as readonly string[]).includes(file.type)) messages.push(m.profileImageType);
  if (file.size > PROFILE_IMAGE_MAX_BYTES) messages.push(m.profileImageTooLarge);
  return messages;
}

export function PictureSection({ user }: { user: User }) {
  const mutation = useUpdatePicture();
  const [file, setFile] = useState<File>();
  const [messages, setMessages] = useState<string[]>([]);
  const preview = useImagePreview(file);
  const [pickerKey, setPickerKey] = useState(0);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const problems = checkPicture(file);
    setMessages(problems);
    if (problems.length > 0 || !file) return;
    mutation.mutate(file, {
      // The new picture is now the account's: the avatar shows it from the server, and the picker
      // starts empty again (a new input, so choosing the same file again is a change).
      onSuccess: () => {
        setFile(undefined);
        setPickerKey((key) => key + 1);
      },
      onError: (error) => setMessages(error instanceof ApiError && error.fields.profileImage ? error.fields.profileImage : [messageOf(error)]),
    });
  };
  return (
    <Section id="cuenta-foto" title="Foto de perfil" description="PNG, JPEG, WebP o GIF de hasta 5 MB.">
      <form noValidate onSubmit={onSubmit} className="grid gap-4">
        <div className="flex min-w-0 items-center gap-4">
          {/* The chosen picture shows here before it is sent; the current one until then. */}
          <Avatar className="size-16">
            <AvatarImage src={preview ?? user.profileImage} alt={preview ? 'Vista previa de la foto nueva' : 'Tu foto de perfil'} />
            <AvatarFallback>{initialsOf(user.name)}</AvatarFallback>
          </Avatar>
          <div className="grid min-w-0 flex-1 gap-2">
            <Label htmlFor="account-picture">Nueva foto</Label>
            <FilePicker
              key={pickerKey}
              id="account-picture"
              file={file}
              buttonLabel="Elegir imagen"
              emptyLabel="Sin imagen elegida"
              accept={PROFILE_IMAGE_TYPES.join(',')}
              invalid={messages.length > 0}
              onChange={(event) => {
                setFile(event.target.files?.[0]);
                setMessages([]);
                mutation.reset();
              }}
            />
            <FieldError fieldId="account-picture" messages={messages} />
          </div>
        </div>
        {mutation.isSuccess && <Done>Foto cambiada</Done>}
        <Button type="submit" loading={mutation.isPending} className="justify-self-start">
          Cambiar foto
        </Button>
      </form>
    </Section>
  );
}
