// Business constants of the spec, shared by server and web app.

export const PASSWORD_MIN_LENGTH = 6;
export const SHORT_CODE_LENGTH = 6;
export const COPY_CONFIRMATION_MS = 2000;
export const QR_PREVIEW_SIZE = 250;
export const UNKNOWN_LOCATION = 'Unknown';
export const DEFAULT_DEVICE = 'desktop';

export const buckets = {
  profilePictures: 'profile-pictures',
  qrs: 'qrs',
  previews: 'previews',
} as const;

export type Bucket = (typeof buckets)[keyof typeof buckets];

/** Where the server publishes stored objects: /storage/{bucket}/{key}. */
export const STORAGE_PATH_PREFIX = '/storage';
