import { useParams } from 'react-router';
import { usePageTitle } from '../../app/use-page-title';

export function LinkDetailPage() {
  const { id } = useParams();
  usePageTitle('Detalle del link');
  return <h1 className="text-3xl font-bold">Link {id}</h1>;
}
