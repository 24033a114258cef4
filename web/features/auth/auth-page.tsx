import { useEffect } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { usePageTitle } from '../../app/use-page-title';
import { BarLoader } from '../../components/ui/bar-loader';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { oidcErrorMessage, OIDC_ERROR_PARAM } from '@common/auth/oidc-messages';
import { Alert } from '../../components/ui/alert';
import { useAuthConfig } from './api/auth-config';
import { useSession } from './api/session';
import { afterSignInPath, CREATE_NEW_PARAM, returnAfterSignIn } from './auth-paths';
import { LoginForm } from './components/login-form';
import { OidcButton } from './components/oidc-button';
import { RegisterForm } from './components/register-form';

export function AuthPage() {
  const [searchParams] = useSearchParams();
  const createNew = searchParams.get(CREATE_NEW_PARAM);
  const { user, isLoading } = useSession();
  const authConfig = useAuthConfig();
  // Until the server says, no form: with PASSWORD_LOGIN=false it would flash and vanish. A server
  // that cannot say keeps the forms (their own errors then tell what is wrong).
  const passwordForms = authConfig.data ? authConfig.data.passwordLogin : authConfig.isError;
  const providerError = oidcErrorMessage(searchParams.get(OIDC_ERROR_PARAM));
  usePageTitle('Iniciar sesión');
  // The place that led here is in the address now.
  useEffect(() => returnAfterSignIn(null), []);

  // Signed in already, or just now by one of the forms: back where they were going, or on to the
  // dashboard with createNew kept.
  if (user) return <Navigate to={afterSignInPath(searchParams)} replace />;

  return (
    <div className="mx-auto flex max-w-md flex-col gap-6">
      <h1 className="text-center text-3xl font-bold tracking-tight">
        {createNew !== null ? '¡Espera! Primero inicia sesión...' : 'Iniciar sesión / Registrarse'}
      </h1>
      {isLoading && <BarLoader label="Comprobando la sesión" />}
      {providerError && <Alert>{providerError}</Alert>}
      {authConfig.data?.oidc && (
        <div className="grid gap-3">
          <OidcButton label={authConfig.data.oidc.label} returnTo={afterSignInPath(searchParams)} />
          {passwordForms && <p className="text-center text-sm text-slate-300">o con tu email y contraseña</p>}
        </div>
      )}
      {passwordForms && (
        <Tabs defaultValue={searchParams.get('tab') === 'register' || searchParams.has('invite') ? 'register' : 'login'}>
          <TabsList aria-label="Acceso">
            <TabsTrigger value="login">Iniciar sesión</TabsTrigger>
            <TabsTrigger value="register">Registrarse</TabsTrigger>
          </TabsList>
          <TabsContent value="login">
            <LoginForm />
          </TabsContent>
          <TabsContent value="register">
            <RegisterForm />
          </TabsContent>
        </Tabs>
      )}
    </div>
  );
}
