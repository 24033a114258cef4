import { z } from 'zod';
import '../zod-setup';
import { TOKEN_NAME_MAX_LENGTH, tokenMessages as m, tokenScopes } from './token-messages';

// One schema for the create route, the screen's form and the client's types.

export const tokenScopeSchema = z.enum(tokenScopes, { error: m.scopeInvalid });

export const createTokenSchema = z
  // strict: a field the API does not know is refused, not ignored.
  .strictObject({
    name: z
      .string({ error: m.nameRequired })
      .trim()
      .min(1, m.nameRequired)
      .max(TOKEN_NAME_MAX_LENGTH, m.nameTooLong),
    scope: tokenScopeSchema,
    /** ISO date-time; absent or null for a token that never expires. */
    expiresAt: z
      .iso.datetime({ offset: true, error: m.expiresAtInvalid })
      .nullable()
      .optional()
      .refine((value) => value == null || Date.parse(value) > Date.now(), m.expiresAtPast),
  })
  .meta({ examples: [{ name: 'ShareX', scope: 'write', expiresAt: '2030-01-01T00:00:00.000Z' }] });

export type CreateTokenInput = z.input<typeof createTokenSchema>;

export const apiTokenSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    scope: tokenScopeSchema,
    prefix: z.string(),
    createdAt: z.iso.datetime(),
    expiresAt: z.iso.datetime().nullable(),
    lastUsedAt: z.iso.datetime().nullable(),
    /** Who made it: in a team workspace's list, its admins see every member's tokens. */
    createdBy: z.object({ id: z.number().int(), name: z.string() }).optional(),
  })
  .meta({
    examples: [
      {
        id: 7,
        name: 'ShareX',
        scope: 'write',
        prefix: 'corto_Xb3kQ9',
        createdAt: '2026-11-24T09:30:00.000Z',
        expiresAt: null,
        lastUsedAt: '2026-11-24T10:02:11.000Z',
      },
    ],
  });

export type ApiToken = z.infer<typeof apiTokenSchema>;

export const createdTokenSchema = z.object({
  token: apiTokenSchema,
  /** Shown this once: only its hash is stored. */
  secret: z.string().meta({ examples: ['corto_Xb3kQ9pL2mVw8rT1yZc4nHs6dFa0gJe5uKo7iBq3xWl'] }),
});

export type CreatedToken = z.infer<typeof createdTokenSchema>;

export const tokenListSchema = z.object({ tokens: z.array(apiTokenSchema) });
export type TokenList = z.infer<typeof tokenListSchema>;

/** DELETE /api/tokens: how many tokens ended, and the sentence that says so. */
export const revokedTokensSchema = z
  .object({ revoked: z.number().int().min(0), message: z.string() })
  .meta({ examples: [{ revoked: 3, message: 'Se han revocado todos tus tokens de API: dejan de funcionar al momento.' }] });
export type RevokedTokens = z.infer<typeof revokedTokensSchema>;
