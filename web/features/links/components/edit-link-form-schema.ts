import {
  LINK_PASSWORD_MAX_LENGTH,
  LINK_PASSWORD_MIN_LENGTH,
  MAX_CLICKS_LIMIT,
  linkMessages as m,
} from '@common/links/link-messages';
import { createLinkSchema, type Link } from '@common/links/link-schemas';
import { previewInputSchema } from '@common/previews/preview-schemas';
import { linkDomainOf } from '../../domains/domain-choices';
import type { LinkChanges } from '../api/update-link';
import { z } from 'zod';
import { readableUrl } from './link-format';
import { tagsTextSchema } from './tags-field';

/** An ISO instant as a date input (type datetime-local) shows it: local time, to the minute. */
export function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/**
 * The edit form: creation's three fields with creation's rules, plus the link's life as the inputs
 * hold it (text). The date must be ahead only when it is changed: an expired link keeps its date
 * while its title is edited.
 */
export function editLinkFormSchema(initialExpiresAt: string) {
  return z.object({
    title: createLinkSchema.shape.title,
    longUrl: createLinkSchema.shape.longUrl,
    customUrl: createLinkSchema.shape.customUrl,
    tags: tagsTextSchema,
    /** The «Dominio» select: '' for the instance's own host. */
    domain: z.string().optional(),
    paused: z.boolean(),
    forwardQuery: z.boolean(),
    expiresAt: z
      .string()
      .refine((value) => value === '' || !Number.isNaN(Date.parse(value)), { message: m.expiresAtInvalid, abort: true })
      .refine((value) => value === '' || value === initialExpiresAt || Date.parse(value) > Date.now(), m.expiresAtPast),
    maxClicks: z
      .string()
      .trim()
      .refine((value) => value === '' || (/^\d{1,10}$/.test(value) && Number(value) >= 1 && Number(value) <= MAX_CLICKS_LIMIT), m.maxClicksInvalid),
    password: z
      .string()
      .refine((value) => value === '' || (value.length >= LINK_PASSWORD_MIN_LENGTH && value.length <= LINK_PASSWORD_MAX_LENGTH), m.passwordLength),
    removePassword: z.boolean(),
    /** «Vista previa al compartir»: blank for none (the card shows the link's title). */
    previewTitle: previewInputSchema.shape.title,
    previewDescription: previewInputSchema.shape.description,
  });
}

export type EditLinkFormInput = z.input<ReturnType<typeof editLinkFormSchema>>;
export type EditLinkForm = z.output<ReturnType<typeof editLinkFormSchema>>;

/**
 * The destination as the card shows it ('https://ejemplo.es/Ñoquis', not '%C3%91oquis'), when that
 * readable form is read back as the very same address; else exactly as stored.
 */
export function editableUrl(url: string): string {
  const readable = readableUrl(url);
  try {
    return new URL(readable).href === url ? readable : url;
  } catch {
    return url;
  }
}

export function editFormDefaults(link: Link): EditLinkFormInput {
  return {
    title: link.title,
    longUrl: editableUrl(link.originalUrl),
    customUrl: link.customUrl ?? '',
    tags: link.tags.join(', '),
    domain: linkDomainOf(link) ?? '',
    paused: link.paused,
    forwardQuery: link.forwardQuery,
    expiresAt: toLocalInput(link.expiresAt),
    maxClicks: link.maxClicks === null ? '' : String(link.maxClicks),
    password: '',
    removePassword: false,
    previewTitle: link.preview?.title ?? '',
    previewDescription: link.preview?.description ?? '',
  };
}

/**
 * The PATCH body: the form's values; the date, the domain and the preview's words only when
 * changed, the password only when typed or removed.
 */
export function changesOf(
  form: EditLinkForm,
  initialExpiresAt: string,
  initialDomain = '',
  initialPreview: Pick<NonNullable<Link['preview']>, 'title' | 'description'> | null = null,
): LinkChanges {
  const changes: LinkChanges = {
    title: form.title,
    longUrl: form.longUrl,
    customUrl: form.customUrl,
    tags: form.tags,
    paused: form.paused,
    forwardQuery: form.forwardQuery,
    maxClicks: form.maxClicks === '' ? null : Number(form.maxClicks),
  };
  if (form.expiresAt !== initialExpiresAt) changes.expiresAt = form.expiresAt === '' ? null : new Date(form.expiresAt).toISOString();
  if (form.domain !== undefined && form.domain !== initialDomain) changes.domain = form.domain === '' ? null : form.domain;
  // The preview's words only when changed: its image is saved on its own, and stays.
  if (form.previewTitle !== (initialPreview?.title ?? null) || form.previewDescription !== (initialPreview?.description ?? null)) {
    changes.preview = { title: form.previewTitle, description: form.previewDescription };
  }
  if (form.removePassword) changes.password = null;
  else if (form.password !== '') changes.password = form.password;
  return changes;
}
