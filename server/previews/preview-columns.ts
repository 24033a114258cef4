import type { UpdateLink } from '@common/links/link-schemas';
import type { UrlsTable } from '../db/schema';
import type { Updateable } from 'kysely';

/** The urls columns a create or an edit's `preview` sets: nothing when left out, all three cleared by null. */
export function previewColumns(preview: UpdateLink['preview']): Updateable<UrlsTable> {
  if (preview === undefined) return {};
  if (preview === null) return { preview_title: null, preview_description: null, preview_image_key: null };
  return { preview_title: preview.title, preview_description: preview.description };
}
