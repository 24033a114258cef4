import { z } from 'zod';

// Path parameters and answers the workspace routes share.

/** `:slug` as typed: slugs are stored lowercase, so 'Equipo' finds 'equipo'. */
export const slugParams = z.object({ slug: z.string().trim().toLowerCase().max(100) });
export const noContent = { 204: z.null().describe('Hecho') };
