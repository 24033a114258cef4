import { createLinkSchema, tagsSchema } from '@common/links/link-schemas';
import { z } from 'zod';

/** What the tags input holds: the tags separated by commas. */
export const splitTags = (text: string): string[] =>
  text
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');

/** The tags input as the forms hold it (text), checked with the API's own rules (tagsSchema). */
export const tagsTextSchema = z.string().transform(splitTags).pipe(tagsSchema);

/**
 * The create form: the API's schema, with the tags typed as text and the «Dominio» select's value
 * ('' for the instance's own host, left out of the request).
 */
export const createLinkFormSchema = createLinkSchema.extend({ tags: tagsTextSchema, domain: z.string().optional() });
export type CreateLinkFormInput = z.input<typeof createLinkFormSchema>;
export type CreateLinkForm = z.output<typeof createLinkFormSchema>;
