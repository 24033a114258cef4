import { ExternalLink } from 'lucide-react';
import { useEffect } from 'react';
import { useNavigate, useParams } from 'react-router';
import { ApiError } from '../../api/client';
import { usePageTitle } from '../../app/use-page-title';
import { BarLoader } from '../../components/ui/bar-loader';
import { Card } from '../../components/ui/card';
import { toast } from '../../components/ui/toaster';
import { LinkStatsCard } from '../stats/components/link-stats-card';
import { LiveClicksCard } from '../stats/components/live-clicks-card';
import { useLink } from './api/get-link';
import { CopyLinkButton } from './components/copy-link-button';
import { DeleteLinkButton } from './components/delete-link-button';
import { DownloadQrButton } from './components/download-qr-button';
import { EditLinkButton } from './components/edit-link-button';
import { QrDialog } from './components/qr-dialog';
import { DisabledNotice, disabledLine, LinkStatusBadge, linkStateLines, PreviousAddresses } from './components/link-state';
import { readableUrl } from './components/link-format';
import { TagChips } from './components/tag-chips';
import { routingOf } from './components/link-routing';
import { RoutingBadges } from './components/routing-badges';
import { RoutingSummary } from './components/routing-summary';
import { formatDateTime } from '../../lib/format';
import { roleMayNotReasons } from '@common/workspaces/workspace-roles';
import { useCurrentWorkspace } from '../workspaces/current-workspace';
import { workspaceHomePath } from '../workspaces/workspace-path';

/** Only positive integers name a link; anything else is sent back like a link that failed to load. */
function linkIdOf(raw: string | undefined): number {
  return raw && /^[1-9]\d{0,14}$/.test(raw) ? Number(raw) : 0;
}

export function LinkDetailPage() {
  const id = linkIdOf(useParams().id);
  const navigate = useNavigate();
  const { scope, workspace, may } = useCurrentWorkspace();
  const home = workspaceHomePath(scope);
  const query = useLink(id);
  usePageTitle(query.data?.title ?? 'Detalle del link');

  // Spec: if the link cannot be loaded (missing, someone else's, or any failure), back to the dashboard.
  const failed = id === 0 || query.isError;
  const { error } = query;
  useEffect(() => {
    if (!failed) return;
    // A link that is not there needs no words; a server that could not be reached does.
    if (error instanceof ApiError && error.status !== 404 && error.status !== 401) {
      toast(`No se pudo abrir el link. ${error.message}`);
    }
    navigate(home, { replace: true });
  }, [failed, error, navigate, home]);

  const link = query.data;
  if (!link) return <BarLoader label="Cargando link" className="fixed inset-x-0 top-0 z-40" />;
  const creator = workspace && !workspace.personal ? link.createdBy : null;

  return (
    <div className="space-y-8">
      <Card className="flex flex-col gap-6 p-5 sm:p-6 md:flex-row-reverse md:items-start md:justify-between">
        <img
          src={link.qr}
          alt={`Código QR de ${link.title}`}
          width={220}
          height={220}
          className="size-56 shrink-0 self-center rounded-lg bg-white p-2 md:self-start"
        />
        <div className="min-w-0 space-y-4">
          <h1 className="text-3xl font-bold tracking-tight break-words sm:text-4xl">{link.title}</h1>
          <div className="flex flex-wrap items-center gap-1.5">
            <LinkStatusBadge status={link.status} />
            <RoutingBadges link={link} className="contents" />
          </div>
          <DisabledNotice link={link} />
          <TagChips tags={link.tags} />
          <a
            href={link.shortLink}
            target="_blank"
            rel="noreferrer"
            className="block text-xl font-semibold break-all text-teal-300 hover:underline sm:text-2xl"
          >
            {readableUrl(link.shortLink)}
          </a>
          {/* The exact stored address is where the link goes; the text is that address made readable. */}
          <a
            href={link.originalUrl}
            target="_blank"
            rel="noreferrer noopener"
            className="flex items-start gap-2 break-all text-slate-200 hover:underline"
          >
            <ExternalLink aria-hidden className="mt-1 size-4 shrink-0" />
            {readableUrl(link.originalUrl)}
          </a>
          <p className="text-sm text-slate-400">
            Creado el <time dateTime={link.createdAt}>{formatDateTime(link.createdAt)}</time>
            {creator && ` por ${creator.name}`}
          </p>
          {linkStateLines(link)
            .filter((line) => !line.startsWith('Direcciones anteriores') && line !== disabledLine(link))
            .map((line) => (
              <p key={line} className="text-sm text-slate-300">
                {line}
              </p>
            ))}
          <PreviousAddresses link={link} />
          <RoutingSummary link={link} />
          <div className="flex flex-wrap gap-2">
            <CopyLinkButton shortLink={link.shortLink} size="default" />
            <DownloadQrButton qr={link.qr} title={link.title} size="default" />
            <QrDialog linkId={link.id} title={link.title} />
            {may('write') && <EditLinkButton link={link} size="default" />}
            {may('write') && <DeleteLinkButton link={link} size="default" onDeleted={() => navigate(home, { replace: true })} />}
          </div>
          {!may('write') && <p className="text-sm text-slate-400">{roleMayNotReasons.write}</p>}
        </div>
      </Card>
      {/* Mounted only now that the link has loaded: the spec asks for stats after the link. */}
      <LinkStatsCard linkId={link.id} routing={routingOf(link)} />
      <LiveClicksCard linkId={link.id} />
    </div>
  );
}
