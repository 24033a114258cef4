import { oidcMessages } from '@common/auth/oidc-messages';
import { Button } from '../../../components/ui/button';

/**
 * 'Entrar con {OIDC_LABEL}': a plain link to the server's start of the round trip, which comes back
 * to `returnTo` (where the user was going: the dashboard with createNew, or `next`).
 */
export function OidcButton({ label, returnTo }: { label: string; returnTo: string }) {
  return (
    <Button asChild size="lg" className="w-full">
      <a href={`/api/auth/oidc/start?${new URLSearchParams({ next: returnTo })}`}>{oidcMessages.button(label)}</a>
    </Button>
  );
}
