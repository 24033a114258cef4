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
import type { MultipartFile } from '@fastify/multipart';
import { AppError } from '../http/app-error';
import { loadSharp } from '../images/load-sharp';
import type { ObjectStorage } from '../storage/storage';

type ImageType = (typeof PREVIEW_IMAGE_TYPES)[number];
// Re-encoded in the format it came in: a PNG keeps its transparency, a photo stays a JPEG.
const formats: Record<ImageType, { extension: string; format: 'png' | 'jpeg' | 'webp' }> = {
  'image/jpeg': { extension: 'jpg', format: 'jpeg' },
  'image/png': { extension: 'png', format: 'png' },
  'image/webp': { extension: 'webp', format: 'webp' },
};

const refuse = (message: string) => new AppError('validation', message, { image: [message] });

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
  if (bytes.length === 0) throw refuse(m.imageRequired);
  if (bytes.length > PREVIEW_IMAGE_MAX_BYTES) throw refuse(m.imageTooLarge);
  const { fileTypeFromBuffer } = await import('file-type');
  const detected = await fileTypeFromBuffer(bytes);
  const type = PREVIEW_IMAGE_TYPES.find((allowed) => allowed === detected?.mime);
  if (!type) throw refuse(m.imageType);

  const sharp = await loadSharp();
  let encoded: Buffer;
  try {
    // The header first: a tiny file can claim a huge canvas (a decompression bomb).
    const { width, height } = await sharp(bytes).metadata();
    if (!width || !height) throw refuse(m.imageUnreadable);
    if (width > PREVIEW_IMAGE_MAX_SIDE || height > PREVIEW_IMAGE_MAX_SIDE) throw refuse(m.imageDimensions);
    // rotate() applies the EXIF orientation before the metadata is dropped.
    encoded = await sharp(bytes, { limitInputPixels: PREVIEW_IMAGE_MAX_SIDE * PREVIEW_IMAGE_MAX_SIDE })
      .rotate()
      .resize(PREVIEW_IMAGE_WIDTH, PREVIEW_IMAGE_HEIGHT, { fit: 'cover' })
      .toFormat(formats[type].format)
      .toBuffer();
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw refuse(m.imageUnreadable);
  }
  const key = `pv-${linkId}-${Date.now()}-${randomBytes(16).toString('base64url')}.${formats[type].extension}`;
  await storage.put(buckets.previews, key, encoded, type);
  return key;
}

/** @fastify/multipart's onFile: the file read into the body, one over the limit refused with the Spanish 413. */
export async function bufferPreviewImage(part: MultipartFile): Promise<void> {
  try {
    (part as MultipartFile & { value: Buffer }).value = await part.toBuffer();
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new AppError('payload_too_large', m.imageTooLarge, { image: [m.imageTooLarge] });
    }
    throw error;
  }
}
