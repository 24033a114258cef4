import type { User } from '@common/auth/auth-schemas';
import { Globe, KeyRound, LayoutDashboard, LogOut, ShieldCheck, UserRound, Webhook } from 'lucide-react';
import { Link, useNavigate } from 'react-router';
import { Avatar, AvatarFallback, AvatarImage, initialsOf } from '../../../components/ui/avatar';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../../../components/ui/dropdown-menu';
import { toast } from '../../../components/ui/toaster';
import { messageOf } from '../../../api/client';
import { useLogout } from '../api/logout';

/** The signed-in user's avatar, opening a menu with their name, 'Mis links', 'Mi cuenta', 'Tokens de API', 'Dominios' and 'Cerrar sesión'. */
export function AccountMenu({ user }: { user: User }) {
  const navigate = useNavigate();
  const logoutMutation = useLogout();
  const logOut = () =>
    logoutMutation.mutate(undefined, {
      onSuccess: () => navigate('/auth'),
      // Still signed in: say so, or the click seems to have done nothing.
      onError: (error) => {
        console.error('Failed to log out:', error);
        toast(`No se ha cerrado la sesión. ${messageOf(error)}`);
      },
    });

  return (
    <DropdownMenu>
      <DropdownMenuTrigger
        aria-label={`Menú de ${user.name}`}
        className="rounded-full focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-teal-300"
      >
        <Avatar>
          <AvatarImage src={user.profileImage} alt="" />
          <AvatarFallback>{initialsOf(user.name)}</AvatarFallback>
        </Avatar>
      </DropdownMenuTrigger>
      <DropdownMenuContent>
        <DropdownMenuLabel className="flex items-center gap-3">
          <Avatar className="size-8">
            <AvatarImage src={user.profileImage} alt="" />
            <AvatarFallback>{initialsOf(user.name)}</AvatarFallback>
          </Avatar>
          <span className="truncate">{user.name}</span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link to="/dashboard">
            <LayoutDashboard aria-hidden />
            Mis links
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link to="/cuenta">
            <UserRound aria-hidden />
            Mi cuenta
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link to="/cuenta/tokens">
            <KeyRound aria-hidden />
            Tokens de API
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link to="/cuenta/dominios">
            <Globe aria-hidden />
            Dominios
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link to="/cuenta/webhooks">
            <Webhook aria-hidden />
            Webhooks
          </Link>
        </DropdownMenuItem>
        {user.role === 'admin' && (
          <DropdownMenuItem asChild>
            <Link to="/admin/usuarios">
              <ShieldCheck aria-hidden />
              Administración
            </Link>
          </DropdownMenuItem>
        )}
        <DropdownMenuItem variant="destructive" disabled={logoutMutation.isPending} onSelect={logOut}>
          <LogOut aria-hidden />
          Cerrar sesión
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
