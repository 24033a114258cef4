import { usePageTitle } from '../../app/use-page-title';

export function DashboardPage() {
  usePageTitle('Mis Links');
  return <h1 className="text-3xl font-bold">Mis Links</h1>;
}
