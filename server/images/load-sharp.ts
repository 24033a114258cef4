import type sharpModule from 'sharp';

// sharp (libvips) takes tens of milliseconds and megabytes to load: it is read with the first image
// (a QR code or a profile picture), not at every start, and an install that only redirects never
// loads it.
let loading: Promise<typeof sharpModule> | undefined;

export function loadSharp(): Promise<typeof sharpModule> {
  return (loading ??= import('sharp').then((module) => module.default));
}
