import { z } from 'zod';
import '../zod-setup';
import { PREVIEW_DESCRIPTION_MAX_LENGTH, PREVIEW_TITLE_MAX_LENGTH, previewMessages as m } from './preview-messages';

// C0, DEL and C1 controls, and the bidirectional ones that reorder what a card shows.
const HIDDEN_CHARACTER = /[\p{Cc}\p{Bidi_Control}]/u;

/**
 * The preview's words as a link's create and update take them: a title (trimmed, up to 120
 * characters) and a description (trimmed, up to 300), each blank or left out for none (the card
 * then shows the link's own title). The image has a route of its own (PUT
 * /api/links/:id/preview-image). null on an update removes the whole preview, its image included.
 * A preview with no title, no description and no image is none.
 */
export const previewInputSchema = z
  .object(
    {
      title: z
        .string({ error: m.titleTooLong })
        .trim()
        .refine((value) => [...value].length <= PREVIEW_TITLE_MAX_LENGTH, m.titleTooLong)
        .refine((value) => !HIDDEN_CHARACTER.test(value), m.titleControl)
        .nullish()
        .transform((value) => value || null),
      description: z
        .string({ error: m.descriptionTooLong })
        .trim()
        .refine((value) => [...value].length <= PREVIEW_DESCRIPTION_MAX_LENGTH, m.descriptionTooLong)
        .refine((value) => !HIDDEN_CHARACTER.test(value), m.descriptionControl)
        .nullish()
        .transform((value) => value || null),
    },
    { error: m.invalid },
  )
  .strict();

export type PreviewInput = z.input<typeof previewInputSchema>;

/**
 * A link's preview as answers give it; null when it has none. title null: the card shows the
 * link's own title; image: the stored picture's absolute address (1200×630), or null.
 */
export const previewSchema = z
  .object({
    title: z.string().nullable(),
    description: z.string().nullable(),
    image: z.string().nullable(),
  })
  .nullable();

export type LinkPreview = z.infer<typeof previewSchema>;
