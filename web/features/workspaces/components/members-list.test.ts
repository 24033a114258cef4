import { roleMayNotReasons } from '@common/workspaces/workspace-roles';
import { workspaceMessages } from '@common/workspaces/workspace-messages';
import type { Member } from '@common/workspaces/workspace-schemas';
import { describe, expect, it } from 'vitest';
import { memberLockReason } from './members-list';

const member = (id: number, role: Member['role']): Member => ({
  user: { id, name: `Persona ${id}`, email: `p${id}@ejemplo.com`, profileImage: '/storage/p.png' },
  role,
  joinedAt: '2026-01-01T00:00:00.000Z',
});

describe('memberLockReason', () => {
  it('lets an owner change and remove anyone else, owners included', () => {
    expect(memberLockReason('owner', 1, member(2, 'owner'))).toBeNull();
    expect(memberLockReason('owner', 1, member(2, 'viewer'))).toBeNull();
  });

  it('lets an admin manage everyone but owners, and says why not for an owner', () => {
    expect(memberLockReason('admin', 1, member(2, 'editor'))).toBeNull();
    expect(memberLockReason('admin', 1, member(2, 'admin'))).toBeNull();
    expect(memberLockReason('admin', 1, member(2, 'owner'))).toBe(roleMayNotReasons.own);
  });

  it('gives editors and readers the reason they manage nobody', () => {
    expect(memberLockReason('editor', 1, member(2, 'viewer'))).toBe(roleMayNotReasons.manage);
    expect(memberLockReason('viewer', 1, member(2, 'viewer'))).toBe(roleMayNotReasons.manage);
  });

  it('never offers a member their own role (leaving is a section of its own)', () => {
    expect(memberLockReason('owner', 1, member(1, 'owner'))).toBe(workspaceMessages.ownRole);
  });
});
