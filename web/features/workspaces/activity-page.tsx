import { messageOf } from '../../api/client';
import { usePageTitle } from '../../app/use-page-title';
import { Alert } from '../../components/ui/alert';
import { BarLoader } from '../../components/ui/bar-loader';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { formatDateTime } from '../../lib/format';
import { activitySentence } from './activity-sentences';
import { useActivity } from './api/activity';
import { useCurrentWorkspace } from './current-workspace';

/** /w/{slug}/actividad: who did what in the workspace, newest first, a page at a time. */
export function ActivityPage() {
  const { workspace } = useCurrentWorkspace();
  usePageTitle(workspace ? `Actividad de ${workspace.name}` : 'Actividad');
  if (!workspace) return null;
  return <ActivityList slug={workspace.slug} name={workspace.name} />;
}

function ActivityList({ slug, name }: { slug: string; name: string }) {
  const activity = useActivity(slug);
  const entries = activity.data?.pages.flatMap((page) => page.entries) ?? [];
  return (
    <div className="mx-auto grid max-w-3xl grid-cols-1 gap-6">
      <h1 className="text-2xl font-bold tracking-tight break-words">Actividad de «{name}»</h1>
      {activity.isPending && <BarLoader label="Cargando la actividad" />}
      {activity.isError && <Alert>{messageOf(activity.error)}</Alert>}
      {activity.data && entries.length === 0 && <p className="text-slate-300">Todavía no ha pasado nada en este espacio.</p>}
      {entries.length > 0 && (
        <Card>
          <ol className="divide-y divide-slate-800" aria-label="Actividad, lo más reciente primero">
            {entries.map((entry) => (
              <li key={entry.id} className="flex flex-col gap-1 px-4 py-3 sm:flex-row sm:items-baseline sm:justify-between sm:gap-4">
                <p className="min-w-0 break-words">{activitySentence(entry)}</p>
                <time dateTime={entry.at} className="shrink-0 text-sm text-slate-400">
                  {formatDateTime(entry.at)}
                </time>
              </li>
            ))}
          </ol>
        </Card>
      )}
      {activity.hasNextPage && (
        <div className="flex justify-center">
          <Button variant="outline" loading={activity.isFetchingNextPage} onClick={() => void activity.fetchNextPage()}>
            Cargar más
          </Button>
        </div>
      )}
      {activity.isFetchNextPageError && <Alert>{messageOf(activity.error)}</Alert>}
    </div>
  );
}
