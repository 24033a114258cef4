import { useEffect } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { usePageTitle } from '../../app/use-page-title';
import { BarLoader } from '../../components/ui/bar-loader';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { useSession } from './api/session';
import { afterSignInPath, CREATE_NEW_PARAM, returnAfterSignIn } from './auth-paths';
import { LoginForm } from './components/login-form';
import { RegisterForm } from './components/register-form';

export function AuthPage() {
  const [searchParams] = useSearchParams();
  const createNew = searchParams.get(CREATE_NEW_PARAM);
  const { user, isLoading } = useSession();
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
    </div>
  );
}
