import type { MultipartFile } from '@fastify/multipart';
import type { Sharp } from 'sharp';
import { AppError } from '../http/app-error';
import { loadSharp } from './load-sharp';

// An uploaded picture (a profile picture, a link's preview image) checked by its bytes, never by
// its name or declared type, and re-encoded without its metadata in the format it came in (a PNG
// keeps its transparency, a photo stays a JPEG, a GIF keeps its first frame).

const formats = {
  'image/jpeg': { extension: 'jpg', format: 'jpeg' },
  'image/png': { extension: 'png', format: 'png' },
  'image/webp': { extension: 'webp', format: 'webp' },
  'image/gif': { extension: 'gif', format: 'gif' },
} as const;
export type UploadedImageType = keyof typeof formats;

export interface UploadedImageRules {
  /** The form field the messages go under. */
  field: string;
  maxBytes: number;
  /** Largest width or height accepted (checked from the header before decoding). */
  maxSide: number;
  types: readonly UploadedImageType[];
  messages: { required: string; tooLarge: string; type: string; unreadable: string; dimensions: string };
  /** The resize the stored picture gets (rotate() has applied the EXIF orientation before it). */
  resize: (image: Sharp) => Sharp;
}

export interface ReencodedImage {
  bytes: Buffer;
  type: UploadedImageType;
  extension: string;
}

export async function reencodeUploadedImage(bytes: Buffer, rules: UploadedImageRules): Promise<ReencodedImage> {
  const refuse = (message: string) => new AppError('validation', message, { [rules.field]: [message] });
  if (bytes.length === 0) throw refuse(rules.messages.required);
  if (bytes.length > rules.maxBytes) throw refuse(rules.messages.tooLarge);
  // Read with the first picture, like sharp below.
  const { fileTypeFromBuffer } = await import('file-type');
  const detected = await fileTypeFromBuffer(bytes);
  const type = rules.types.find((allowed) => allowed === detected?.mime);
  if (!type) throw refuse(rules.messages.type);

  const sharp = await loadSharp();
  try {
    // The header first: a tiny file can claim a huge canvas (a decompression bomb).
    const { width, height } = await sharp(bytes).metadata();
    if (!width || !height) throw refuse(rules.messages.unreadable);
    if (width > rules.maxSide || height > rules.maxSide) throw refuse(rules.messages.dimensions);
    // rotate() applies the EXIF orientation before the metadata is dropped (sharp keeps none by default).
    const image = rules.resize(sharp(bytes, { limitInputPixels: rules.maxSide * rules.maxSide }).rotate());
    return { bytes: await image.toFormat(formats[type].format).toBuffer(), type, extension: formats[type].extension };
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw refuse(rules.messages.unreadable);
  }
}

/**
 * @fastify/multipart's onFile for a picture: the file read into the body as a Buffer, and one over
 * the route's file size limit refused with the Spanish 413 under its field.
 */
export function bufferUploadedImage(field: string, tooLarge: string): (part: MultipartFile) => Promise<void> {
  return async (part) => {
    try {
      (part as MultipartFile & { value: Buffer }).value = await part.toBuffer();
    } catch (error) {
      if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('payload_too_large', tooLarge, { [field]: [tooLarge] });
      throw error;
    }
  };
}
