import type { Link } from '@common/links/link-schemas';
import { PREVIEW_IMAGE_MAX_BYTES, PREVIEW_IMAGE_TYPES, previewMessages as m } from '@common/previews/preview-messages';
import type { ComponentProps } from 'react';
import { useState } from 'react';
import { ApiError, messageOf } from '../../../api/client';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import { FieldError } from '../../../components/ui/field-error';
import { FilePicker } from '../../../components/ui/file-picker';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { toast } from '../../../components/ui/toaster';
import { useRemovePreviewImage, useSetPreviewImage } from '../api/preview-image';

/** What the browser can tell before sending: the declared type and the size (the server checks the bytes). */
function imageProblems(file: File): string[] {
  const problems: string[] = [];
  if (!(PREVIEW_IMAGE_TYPES as readonly string[]).includes(file.type)) problems.push(m.imageType);
  if (file.size > PREVIEW_IMAGE_MAX_BYTES) problems.push(m.imageTooLarge);
  return problems;
}

/** The card as a chat shows it: the picture (1.91:1), the title, the description, the short link's host. */
export function PreviewCardMock({ title, description, image, host }: { title: string; description: string; image: string | null; host: string }) {
  return (
    <figure aria-label="Así se verá al compartirlo en un chat" className="max-w-sm overflow-hidden rounded-xl border border-slate-700 bg-slate-800 text-left">
      {image ? (
        <img src={image} alt="" className="aspect-[1.91/1] w-full object-cover" />
      ) : (
        <div className="flex aspect-[1.91/1] w-full items-center justify-center bg-slate-900 text-xs text-slate-400">Sin imagen</div>
      )}
      <figcaption className="grid gap-1 border-l-4 border-teal-400 p-3">
        <span className="text-xs uppercase tracking-wide text-slate-400">{host}</span>
        <span className="line-clamp-2 break-words text-sm font-semibold text-slate-100">{title}</span>
        {description && <span className="line-clamp-3 break-words text-xs text-slate-300">{description}</span>}
      </figcaption>
    </figure>
  );
}

type PreviewSectionProps = {
  link: Link;
  /** The form's inputs for the words (saved with «Guardar»). */
  titleProps: ComponentProps<'input'>;
  descriptionProps: ComponentProps<'input'>;
  titleMessages: string[];
  descriptionMessages: string[];
  /** What is typed now, for the card. */
  typedTitle: string;
  typedDescription: string;
  /** The link's title as typed: the card's when the preview has none. */
  linkTitle: string;
};

/**
 * «Vista previa al compartir»: the card WhatsApp, Slack, X and the like show for the link. The
 * words are saved with the form; the image at once when chosen (a request of its own), and
 * removed after a question.
 */
export function PreviewSection({ link, titleProps, descriptionProps, titleMessages, descriptionMessages, typedTitle, typedDescription, linkTitle }: PreviewSectionProps) {
  const setImage = useSetPreviewImage();
  const removeImage = useRemovePreviewImage();
  const [image, setImageUrl] = useState(link.preview?.image ?? null);
  const [file, setFile] = useState<File>();
  const [imageMessages, setImageMessages] = useState<string[]>([]);
  const [pickerKey, setPickerKey] = useState(0);
  const host = new URL(link.shortLink).host;

  const upload = (chosen: File | undefined) => {
    setImageMessages([]);
    setFile(chosen);
    if (!chosen) return;
    const problems = imageProblems(chosen);
    if (problems.length > 0) return setImageMessages(problems);
    setImage.mutate(
      { id: link.id, file: chosen },
      {
        onSuccess: (saved) => {
          setImageUrl(saved.preview?.image ?? null);
          setFile(undefined);
          setPickerKey((key) => key + 1);
          toast(m.imageSaved, 'success');
        },
        onError: (error) => setImageMessages(error instanceof ApiError && error.fields.image ? error.fields.image : [messageOf(error)]),
      },
    );
  };
  const remove = () =>
    removeImage.mutate(link.id, {
      onSuccess: () => {
        setImageUrl(null);
        toast(m.imageRemoved, 'success');
      },
      onError: (error) => setImageMessages([messageOf(error)]),
    });

  return (
    <fieldset className="grid gap-4 rounded-lg border border-slate-700 p-4">
      <legend className="px-1 text-sm font-medium text-slate-200">Vista previa al compartir</legend>
      <p className="text-sm text-slate-300">
        Lo que WhatsApp, Telegram, Slack, X, LinkedIn o Discord muestran al pegar el link. Quien lo abre sigue yendo al destino.
      </p>
      <div className="grid gap-2">
        <Label htmlFor="link-previewTitle">Título (opcional)</Label>
        <Input {...titleProps} autoComplete="off" placeholder={linkTitle || 'El título del link'} />
        <FieldError fieldId="link-previewTitle" messages={titleMessages} />
      </div>
      <div className="grid gap-2">
        <Label htmlFor="link-previewDescription">Descripción (opcional)</Label>
        <Input {...descriptionProps} autoComplete="off" />
        <FieldError fieldId="link-previewDescription" messages={descriptionMessages} />
      </div>
      <div className="grid gap-2">
        <Label htmlFor="link-previewImage">Imagen (JPEG, PNG o WebP de hasta 5 MB; se recorta a 1200×630 y se guarda al elegirla)</Label>
        <div className="flex flex-wrap items-center gap-3">
          <FilePicker
            key={pickerKey}
            id="link-previewImage"
            file={file}
            buttonLabel={image ? 'Cambiar imagen' : 'Elegir imagen'}
            emptyLabel={image ? 'Imagen guardada' : 'Sin imagen'}
            accept={PREVIEW_IMAGE_TYPES.join(',')}
            invalid={imageMessages.length > 0}
            disabled={setImage.isPending}
            onChange={(event) => upload(event.target.files?.[0])}
          />
          {image && (
            <ConfirmButton
              type="button"
              size="sm"
              title="¿Quitar la imagen de la vista previa?"
              description="La imagen se borra; para volver a tenerla tendrás que subirla otra vez."
              confirmLabel="Quitar"
              onConfirm={remove}
              loading={removeImage.isPending}
            >
              Quitar imagen
            </ConfirmButton>
          )}
        </div>
        <FieldError fieldId="link-previewImage" messages={imageMessages} />
        <p role="status" className="text-sm text-slate-300">
          {setImage.isPending ? 'Subiendo la imagen…' : ''}
        </p>
      </div>
      <PreviewCardMock title={typedTitle.trim() || linkTitle} description={typedDescription.trim()} image={image} host={host} />
    </fieldset>
  );
}
