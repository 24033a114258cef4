import { authMessages as m, PROFILE_IMAGE_MAX_BYTES, PROFILE_IMAGE_TYPES } from '@common/auth/auth-messages';
import type { User } from '@common/auth/auth-schemas';
import { type FormEvent, useState } from 'react';
import { ApiError } from '../../../api/client';
import { FieldError, fieldErrorId } from '../../../components/ui/field-error';
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
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const problems = checkPicture(file);
    setMessages(problems);
    if (problems.length > 0 || !file) return;
    mutation.mutate(file, {
      onError: (error) => setMessages(error instanceof ApiError && error.fields.profileImage ? error.fields.profileImage : [messageOf(error)]),
    });
  };
  return (
    <Section id="cuenta-foto" title="Foto de perfil" description="PNG, JPEG, WebP o GIF de hasta 5 MB.">
      <form noValidate onSubmit={onSubmit} className="grid gap-4">
        <div className="flex items-center gap-4">
          <Avatar className="size-16">
            <AvatarImage src={user.profileImage} alt="Tu foto de perfil" />
            <AvatarFallback>{initialsOf(user.name)}</AvatarFallback>
          </Avatar>
          <div className="grid gap-2">
            <Label htmlFor="account-picture">Nueva foto</Label>
            <input
              id="account-picture"
              type="file"
              accept={PROFILE_IMAGE_TYPES.join(',')}
              aria-invalid={messages.length > 0 || undefined}
              aria-describedby={fieldErrorId('account-picture')}
              onChange={(event) => {
                setFile(event.target.files?.[0]);
                setMessages([]);
                mutation.reset();
              }}
              className="text-sm text-slate-300 file:mr-3 file:rounded-md file:border-0 file:bg-slate-700 file:px-3 file:py-1.5 file:text-slate-100"
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
