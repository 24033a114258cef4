import { accountMessages as a } from '@common/account/account-messages';
import { Link, useSearchParams } from 'react-router';
import { usePageTitle } from '../../app/use-page-title';
import { ApiError, messageOf } from '../../api/client';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { useConfirmVerification } from './api/email-verification';

const linkClass = 'text-teal-300 underline-offset-4 hover:underline';

/**
 * /auth/verificar?token=...: the e-mail's link. Confirmed by a button rather than on load, so a
 * mail scanner that opens links does not use it up; works without a session.
 */
export function VerifyEmailPage() {
  usePageTitle('Verificar email');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const mutation = useConfirmVerification();
  const refused = mutation.error instanceof ApiError && mutation.error.fields.token ? mutation.error.fields.token[0] : !token ? a.verifyTokenRequired : undefined;

  return (
    <div className="mx-auto max-w-md">
      <Card>
        <CardHeader>
          <CardTitle as="h1">Verificar tu email</CardTitle>
          <CardDescription>Confirma que esta dirección es tuya.</CardDescription>
        </CardHeader>
        <CardContent>
          {mutation.isSuccess ? (
            <div className="grid gap-3">
              <p role="status" className="text-teal-300 [overflow-wrap:anywhere]">
                {mutation.data.message}
              </p>
              <Link to="/cuenta" className={linkClass}>
                Ir a Mi cuenta
              </Link>
            </div>
          ) : refused ? (
            <div className="grid gap-3">
              <Alert>{refused}</Alert>
              <Link to="/cuenta" className={linkClass}>
                Pedir otro enlace en Mi cuenta
              </Link>
            </div>
          ) : (
            <div className="grid gap-4">
              {mutation.isError && <Alert>{messageOf(mutation.error)}</Alert>}
              <Button type="button" loading={mutation.isPending} onClick={() => mutation.mutate({ token })}>
                Verificar mi email
              </Button>
            </div>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
