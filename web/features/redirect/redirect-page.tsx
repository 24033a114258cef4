import { usePageTitle } from '../../app/use-page-title';

export function RedirectPage() {
  usePageTitle('Redirigiendo');
  return <p className="text-center text-slate-300">Redirecting...</p>;
}
