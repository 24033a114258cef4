import { usePageTitle } from '../../app/use-page-title';
import { useSession } from '../auth/api/session';
import { RevokeAllTokens } from '../tokens/components/revoke-all-tokens';
import { oidcMessages } from '@common/auth/oidc-messages';
import { useAccountOidc } from './api/oidc';
import { DeleteAccountSection } from './components/delete-account-section';
import { OidcSection } from './components/oidc-section';
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
  // An account the company's provider made has no password: nothing to change, and two-factor is
  // the provider's business (it guards only password sign-ins here).
  const passwordless = useAccountOidc().data?.hasPassword === false;
  if (!user) return null;
  return (
    <div className="mx-auto grid max-w-2xl gap-6">
      <h1 className="text-3xl font-bold tracking-tight">Mi cuenta</h1>
      <NameSection user={user} />
      <PictureSection user={user} />
      <EmailSection user={user} />
      <OidcSection />
      {passwordless ? (
        <Section id="cuenta-contrasena" title="Contraseña">
          <p className="text-sm text-slate-300">{oidcMessages.noPasswordToChange}</p>
        </Section>
      ) : (
        <PasswordSection />
      )}
      <SessionsSection />
      <Section id="cuenta-tokens" title="Tokens de API" description="Los tokens con los que tus programas usan la API en tu nombre.">
        <RevokeAllTokens />
      </Section>
      {!passwordless && <TotpSection user={user} />}
      <DeleteAccountSection typeEmail={passwordless} />
    </div>
  );
}
