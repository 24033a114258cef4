import { randomBytes } from 'node:crypto';
import {
  authMessages as m,
  PROFILE_IMAGE_MAX_BYTES,
  PROFILE_IMAGE_MAX_SIDE,
  PROFILE_IMAGE_TYPES,
} from '@common/auth/auth-messages';
import { buckets } from '@common/constants';
import { bufferUploadedImage, reencodeUploadedImage } from '../images/uploaded-image';
import type { ObjectStorage } from '../storage/storage';

// Avatars are shown small; anything larger is wasted bytes.
const STORED_SIDE = 512;

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
  const image = await reencodeUploadedImage(bytes, {
    field: 'profileImage',
    maxBytes: PROFILE_IMAGE_MAX_BYTES,
    maxSide: PROFILE_IMAGE_MAX_SIDE,
    types: PROFILE_IMAGE_TYPES,
    messages: {
      required: m.profileImageRequired,
      tooLarge: m.profileImageTooLarge,
      type: m.profileImageType,
      unreadable: m.profileImageUnreadable,
      dimensions: m.profileImageDimensions,
    },
    resize: (picture) => picture.resize(STORED_SIDE, STORED_SIDE, { fit: 'inside', withoutEnlargement: true }),
  });
  const key = `dp-${nameSlug(name)}-${Date.now()}-${randomBytes(16).toString('base64url')}.${image.extension}`;
  await storage.put(buckets.profilePictures, key, image.bytes, image.type);
  return key;
}

/**
 * @fastify/multipart's onFile for a profile picture (sign-up and the account page): the file read
 * into the body as a Buffer, and one over PROFILE_IMAGE_MAX_BYTES refused with the Spanish 413 under
 * its field.
 */
export const bufferProfilePicture = bufferUploadedImage('profileImage', m.profileImageTooLarge);
