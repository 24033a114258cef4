import { randomBytes } from 'node:crypto';
import { buckets } from '@common/constants';
import {
  PREVIEW_IMAGE_HEIGHT,
  PREVIEW_IMAGE_MAX_BYTES,
  PREVIEW_IMAGE_MAX_SIDE,
  PREVIEW_IMAGE_TYPES,
  PREVIEW_IMAGE_WIDTH,
  previewMessages as m,
} from '@common/previews/preview-messages';
import { bufferUploadedImage, reencodeUploadedImage } from '../images/uploaded-image';
import type { ObjectStorage } from '../storage/storage';

/**
 * The absolute address of a preview's image: chat apps fetch it from their own servers, so a
 * storage address rooted at this server gets PUBLIC_BASE_URL before it (custom domains serve no
 * stored files).
 */
export function previewImageUrl(storage: Pick<ObjectStorage, 'publicUrl'>, publicBaseUrl: string, key: string): string {
  const address = storage.publicUrl(buckets.previews, key);
  return address.startsWith('/') ? `${publicBaseUrl}${address}` : address;
}

/**
 * Checks the bytes (not the name or the declared type) as a profile picture's are, crops the
 * picture to 1200×630 (what large cards show) without its metadata, and stores it as
 * `pv-{link id}-{milliseconds}-{128 random bits}.{ext}`: a new name for each upload, so caches
 * (and chat apps) never keep an old picture under a new one's address.
 */
export async function storePreviewImage(storage: ObjectStorage, linkId: number, bytes: Buffer): Promise<string> {
  const image = await reencodeUploadedImage(bytes, {
    field: 'image',
    maxBytes: PREVIEW_IMAGE_MAX_BYTES,
    maxSide: PREVIEW_IMAGE_MAX_SIDE,
    types: PREVIEW_IMAGE_TYPES,
    messages: { required: m.imageRequired, tooLarge: m.imageTooLarge, type: m.imageType, unreadable: m.imageUnreadable, dimensions: m.imageDimensions },
    resize: (picture) => picture.resize(PREVIEW_IMAGE_WIDTH, PREVIEW_IMAGE_HEIGHT, { fit: 'cover' }),
  });
  const key = `pv-${linkId}-${Date.now()}-${randomBytes(16).toString('base64url')}.${image.extension}`;
  await storage.put(buckets.previews, key, image.bytes, image.type);
  return key;
}

/** @fastify/multipart's onFile: the file read into the body, one over the limit refused with the Spanish 413. */
export const bufferPreviewImage = bufferUploadedImage('image', m.imageTooLarge);
