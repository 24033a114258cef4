import { usePageTitle } from '../../app/use-page-title';

export function AuthPage() {
  usePageTitle('Iniciar sesión');
  return <h1 className="text-3xl font-bold">Iniciar sesión / Registrarse</h1>;
}
