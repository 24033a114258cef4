import type { User } from '@common/auth/auth-schemas';
import { WorkspaceSwitcher } from '../../workspaces/components/workspace-switcher';
import { AccountMenu } from './account-menu';

/** The top bar's right end once signed in: the workspace switcher, then the avatar's menu. */
export function SignedInMenus({ user }: { user: User }) {
  return (
    <>
      <WorkspaceSwitcher user={user} />
      <AccountMenu user={user} />
    </>
  );
}
