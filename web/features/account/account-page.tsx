import { usePageTitle } from '../../app/use-page-title';
import { useSession } from '../auth/api/session';
import { RevokeAllTokens } from '../tokens/components/revoke-all-tokens';
import { DeleteAccountSection } from './components/delete-account-section';
import { PasswordSection } from './components/password-section';
import { PictureSection } from './components/picture-section';
import { EmailSection, NameSection } from './components/profile-sections';
import { Section } from './components/section';
import { SessionsSection } from './components/sessions-section';
import { TotpSection } from './components/totp-section';

/** /cuenta, from the avatar menu's 'Mi cuenta' (behind RequireAuth). */
export function AccountPage() {
  usePageTitle('Mi cuenta');
  const { user } = useSession();
  if (!user) return null;
  return (
    <div className="mx-auto grid max-w-2xl gap-6">
      <h1 className="text-3xl font-bold tracking-tight">Mi cuenta</h1>
      <NameSection user={user} />
      <PictureSection user={user} />
      <EmailSection user={user} />
      <PasswordSection />
      <SessionsSection />
      <Section id="cuenta-tokens" title="Tokens de API" description="Los tokens con los que tus programas usan la API en tu nombre.">
        <RevokeAllTokens />
      </Section>
      <TotpSection user={user} />
      <DeleteAccountSection />
    </div>
  );
}
