import { randomBytes } from 'node:crypto';
import {
  authMessages as m,
  PROFILE_IMAGE_MAX_BYTES,
  PROFILE_IMAGE_MAX_SIDE,
  PROFILE_IMAGE_TYPES,
} from '@common/auth/auth-messages';
import { buckets } from '@common/constants';
import type { MultipartFile } from '@fastify/multipart';
import { loadSharp } from '../images/load-sharp';
import { AppError } from '../http/app-error';
import type { ObjectStorage } from '../storage/storage';

// Avatars are shown small; anything larger is wasted bytes.
const STORED_SIDE = 512;

type ImageType = (typeof PROFILE_IMAGE_TYPES)[number];
// Each picture is re-encoded in the format it came in (a GIF keeps its first frame only).
const formats: Record<ImageType, { extension: string; format: 'png' | 'jpeg' | 'webp' | 'gif' }> = {
  'image/png': { extension: 'png', format: 'png' },
  'image/jpeg': { extension: 'jpg', format: 'jpeg' },
  'image/webp': { extension: 'webp', format: 'webp' },
  'image/gif': { extension: 'gif', format: 'gif' },
};

const refuse = (message: string) => new AppError('validation', message, { profileImage: [message] });

/** The name as a storage-key fragment: accents dropped, spaces as hyphens, nothing else odd. */
export function nameSlug(name: string): string {
  const slug = name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .trim()
    .replace(/\s+/g, '-')
    .replace(/[^A-Za-z0-9_-]/g, '')
    .replace(/-{2,}/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '')
    .slice(0, 60);
  return slug || 'usuario';
}

/**
 * Checks the bytes (not the name or declared type), re-encodes without metadata, and stores it as
 * `dp-{name}-{milliseconds}-{128 random bits}.{ext}`: the spec's name with a part nobody can guess,
 * so knowing someone's name and the second they signed up does not find their picture.
 */
export async function storeProfilePicture(storage: ObjectStorage, name: string, bytes: Buffer): Promise<string> {
  if (bytes.length === 0) throw refuse(m.profileImageRequired);
  if (bytes.length > PROFILE_IMAGE_MAX_BYTES) throw refuse(m.profileImageTooLarge);
  // Read with the first picture, like sharp below.
  const { fileTypeFromBuffer } = await import('file-type');
  const detected = await fileTypeFromBuffer(bytes);
  const type = PROFILE_IMAGE_TYPES.find((allowed) => allowed === detected?.mime);
  if (!type) throw refuse(m.profileImageType);

  const sharp = await loadSharp();
  let encoded: Buffer;
  try {
    // Read the header first: a tiny file can claim a huge canvas (a decompression bomb).
    const { width, height } = await sharp(bytes).metadata();
    if (!width || !height) throw refuse(m.profileImageUnreadable);
    if (width > PROFILE_IMAGE_MAX_SIDE || height > PROFILE_IMAGE_MAX_SIDE) throw refuse(m.profileImageDimensions);
    // rotate() applies the EXIF orientation before the metadata is dropped (sharp keeps none by default).
    const image = sharp(bytes, { limitInputPixels: PROFILE_IMAGE_MAX_SIDE * PROFILE_IMAGE_MAX_SIDE })
      .rotate()
      .resize(STORED_SIDE, STORED_SIDE, { fit: 'inside', withoutEnlargement: true });
    encoded = await image.toFormat(formats[type].format).toBuffer();
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw refuse(m.profileImageUnreadable);
  }

  const key = `dp-${nameSlug(name)}-${Date.now()}-${randomBytes(16).toString('base64url')}.${formats[type].extension}`;
  await storage.put(buckets.profilePictures, key, encoded, type);
  return key;
}

/**
 * @fastify/multipart's onFile for a profile picture (sign-up and the account page): the file read
 * into the body as a Buffer, and one over PROFILE_IMAGE_MAX_BYTES refused with the Spanish 413 under
 * its field.
 */
export async function bufferProfilePicture(part: MultipartFile): Promise<void> {
  try {
    (part as MultipartFile & { value: Buffer }).value = await part.toBuffer();
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new AppError('payload_too_large', m.profileImageTooLarge, { profileImage: [m.profileImageTooLarge] });
    }
    throw error;
  }
}
