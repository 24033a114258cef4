import { buckets } from '@common/constants';
import type { User } from '@common/auth/auth-schemas';
import type { UserRow } from '../db/schema';
import type { ObjectStorage } from '../storage/storage';
import type { SessionUser } from './sessions';

/** The signed-in user from their row (or the columns of it a join selected). */
export function sessionUserOfRow(
  row: Pick<UserRow, 'id' | 'email' | 'name' | 'profile_image' | 'created_at' | 'totp_secret' | 'role'>,
): SessionUser {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    profileImageKey: row.profile_image,
    createdAt: row.created_at,
    totp: row.totp_secret !== null,
    role: row.role,
  };
}

/** A user as the API shows it: the picture's address rather than its storage key. */
export function apiUser(storage: ObjectStorage, user: SessionUser): User {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    // '' for an account the provider made without one: the web app shows the initials.
    profileImage: user.profileImageKey ? storage.publicUrl(buckets.profilePictures, user.profileImageKey) : '',
    createdAt: new Date(user.createdAt).toISOString(),
    role: user.role,
    totp: user.totp,
  };
}
