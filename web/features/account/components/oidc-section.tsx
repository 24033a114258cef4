import { Alert } from '../../../components/ui/alert';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import { toast } from '../../../components/ui/toaster';
import { messageOf } from '../../../api/client';
import { useAccountOidc, useUnlinkOidc } from '../api/oidc';
import { Section } from './section';

/** The company's provider linked to the account (only shown when there is one). */
export function OidcSection() {
  const { data } = useAccountOidc();
  const unlink = useUnlinkOidc();
  if (!data?.linked) return null;
  const { label, since } = data.linked;
  return (
    <Section id="cuenta-proveedor" title="Proveedor de la empresa" description={`Entras con ${label} desde el ${new Date(since).toLocaleDateString('es-ES')}.`}>
      <div className="grid gap-3">
        {data.hasPassword ? (
          <ConfirmButton
            variant="outline"
            title={`¿Desvincular ${label}?`}
            description={`Ya no podrás entrar con ${label} a esta cuenta, solo con tu email y contraseña. Si vuelves a entrar con ${label}, se vinculará de nuevo si tu email está verificado allí.`}
            confirmLabel="Desvincular"
            loading={unlink.isPending}
            onConfirm={() =>
              unlink.mutate(undefined, {
                onSuccess: () => toast(`${label} desvinculado de tu cuenta.`, 'success'),
              })
            }
          >
            Desvincular {label}
          </ConfirmButton>
        ) : (
          <p className="text-sm text-slate-300">
            Tu cuenta no tiene contraseña: para desvincular {label}, crea antes una con «¿Olvidaste tu contraseña?» en la página de acceso.
          </p>
        )}
        {unlink.isError && <Alert>{messageOf(unlink.error)}</Alert>}
      </div>
    </Section>
  );
}
