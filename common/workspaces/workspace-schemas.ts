import { z } from 'zod';
import '../zod-setup';
import { isReservedPath } from '../reserved-paths';
import { WORKSPACE_NAME_MAX_LENGTH, workspaceMessages as m } from './workspace-messages';
import { workspaceRoles } from './workspace-roles';
import { WORKSPACE_SLUG_PATTERN } from './workspace-slug';

// One schema each for the workspace routes, the web app's forms and the client's types
// (docs/workspaces.md has the contract).

export const workspaceRoleSchema = z.enum(workspaceRoles, { error: m.roleInvalid });

const workspaceName = z.string({ error: m.nameRequired }).trim().min(1, m.nameRequired).max(WORKSPACE_NAME_MAX_LENGTH, m.nameTooLong);

/** A slug as typed: compared and stored lowercase, so 'Equipo' and 'equipo' are the same slug. */
export const workspaceSlugSchema = z
  .string({ error: m.slugInvalid })
  .trim()
  .toLowerCase()
  .regex(WORKSPACE_SLUG_PATTERN, m.slugInvalid)
  .refine((slug) => !isReservedPath(slug), m.slugReserved);

export const workspaceSchema = z
  .object({
    id: z.number().int(),
    slug: z.string(),
    name: z.string(),
    personal: z.boolean(),
    /** The caller's role here. */
    role: workspaceRoleSchema,
  })
  .meta({ examples: [{ id: 12, slug: 'marketing', name: 'Marketing', personal: false, role: 'owner' }] });
export type Workspace = z.infer<typeof workspaceSchema>;

export const workspaceListSchema = z.object({ workspaces: z.array(workspaceSchema) });
export const workspaceResponseSchema = z.object({ workspace: workspaceSchema });

export const createWorkspaceSchema = z.strictObject({ name: workspaceName, slug: workspaceSlugSchema.optional() });
export type CreateWorkspaceInput = z.input<typeof createWorkspaceSchema>;

export const updateWorkspaceSchema = z.strictObject({ name: workspaceName.optional(), slug: workspaceSlugSchema.optional() });
export type UpdateWorkspaceInput = z.input<typeof updateWorkspaceSchema>;

export const deleteWorkspaceSchema = z.strictObject({ password: z.string({ error: m.passwordRequired }).min(1, m.passwordRequired) });

export const memberSchema = z.object({
  user: z.object({ id: z.number().int(), name: z.string(), email: z.string(), profileImage: z.string() }),
  role: workspaceRoleSchema,
  joinedAt: z.iso.datetime(),
});
export type Member = z.infer<typeof memberSchema>;
export const memberListSchema = z.object({ members: z.array(memberSchema) });

export const updateMemberSchema = z.strictObject({ role: workspaceRoleSchema });

export const createInviteSchema = z.strictObject({
  email: z.string({ error: m.emailInvalid }).trim().toLowerCase().max(254, m.emailInvalid).refine((value) => z.regexes.email.test(value), m.emailInvalid),
  role: workspaceRoleSchema,
});
export type CreateInviteInput = z.input<typeof createInviteSchema>;

export const inviteSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  role: workspaceRoleSchema,
  /** The address that accepts it; only in the answer that creates it (only its hash is stored). */
  url: z.string().optional(),
  expiresAt: z.iso.datetime(),
  createdAt: z.iso.datetime(),
});
export type Invite = z.infer<typeof inviteSchema>;
export const inviteResponseSchema = z.object({ invite: inviteSchema });
/** POST /api/workspaces/:slug/invites: the invitation with its link, and whether it was mailed (SMTP_URL). */
export const createdInviteResponseSchema = z.object({ invite: inviteSchema, mailed: z.boolean() });
export const inviteListSchema = z.object({ invites: z.array(inviteSchema) });

/** GET /api/invites/:token: what the acceptance page shows before the addressee accepts. */
export const invitePreviewSchema = z.object({
  workspace: z.object({ name: z.string(), slug: z.string() }),
  email: z.string(),
  role: workspaceRoleSchema,
  invitedBy: z.string().nullable(),
  expiresAt: z.iso.datetime(),
});
export type InvitePreview = z.infer<typeof invitePreviewSchema>;

export const activityActions = [
  'workspace.created',
  'workspace.renamed',
  'link.created',
  'link.edited',
  'link.deleted',
  'links.imported',
  'member.joined',
  'member.role_changed',
  'member.removed',
  'member.left',
  'invite.created',
  'invite.revoked',
  'domain.added',
  'domain.verified',
  'domain.deleted',
] as const;
export type ActivityAction = (typeof activityActions)[number];

export const activityEntrySchema = z.object({
  id: z.number().int(),
  action: z.enum(activityActions),
  actor: z.object({ id: z.number().int().nullable(), name: z.string() }),
  /** What it acted on, as shown: a short address, an e-mail, a name. */
  target: z.string(),
  detail: z.string().nullable(),
  at: z.iso.datetime(),
});
export type ActivityEntry = z.infer<typeof activityEntrySchema>;
export const activityListSchema = z.object({ entries: z.array(activityEntrySchema), nextCursor: z.string().nullable() });
export const activityQuerySchema = z.object({
  cursor: z.string().optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

/** A workspace in the operator's list (GET /api/admin/workspaces). */
export const adminWorkspaceSchema = z.object({
  id: z.number().int(),
  slug: z.string(),
  name: z.string(),
  personal: z.boolean(),
  members: z.number().int(),
  links: z.number().int(),
  clicks: z.number().int(),
  createdAt: z.iso.datetime(),
});
export type AdminWorkspace = z.infer<typeof adminWorkspaceSchema>;
export const adminWorkspacesResponseSchema = z.object({ workspaces: z.array(adminWorkspaceSchema), nextCursor: z.number().nullable() });
