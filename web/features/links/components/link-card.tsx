import type { Link as ApiLink } from '@common/links/link-schemas';
import { Link } from 'react-router';
import { Card } from '../../../components/ui/card';
import { CopyLinkButton } from './copy-link-button';
import { DeleteLinkButton } from './delete-link-button';
import { DownloadQrButton } from './download-qr-button';
import { EditLinkButton } from './edit-link-button';
import { LinkStatusBadge, linkStateLines } from './link-state';
import { RoutingBadges } from './routing-badges';
import { formatCount, formatDateTime, nouns } from '../../../lib/format';
import { displayAddress } from './link-format';
import { TagChips } from './tag-chips';
import { useCurrentWorkspace } from '../../workspaces/current-workspace';
import { workspaceLinkPath } from '../../workspaces/workspace-path';

type LinkCardProps = {
  link: ApiLink;
  /** With a selection: the card's checkbox, checked when the link is selected. */
  selection?: { selected: boolean; onChange: (selected: boolean) => void } | undefined;
};

/** One link on the dashboard; the whole card opens its detail page, the buttons act on their own. */
export function LinkCard({ link, selection }: LinkCardProps) {
  const { scope, workspace, may } = useCurrentWorkspace();
  // In a team, who made each link matters; in the personal workspace it is always the user.
  const creator = workspace && !workspace.personal ? link.createdBy : null;
  return (
    <Card className="relative grid grid-cols-[auto_minmax(0,1fr)] items-center gap-x-4 gap-y-3 p-4 transition-colors hover:border-slate-600 sm:grid-cols-[auto_minmax(0,1fr)_auto]">
      <div className="flex items-center gap-2 sm:gap-3">
        {selection && (
          // Above the stretched link, so a click on it selects rather than opens the detail.
          <input
            type="checkbox"
            aria-label={`Seleccionar «${link.title}»`}
            checked={selection.selected}
            onChange={(event) => selection.onChange(event.target.checked)}
            className="relative z-10 size-5 shrink-0 accent-teal-400 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-teal-300"
          />
        )}
        <img
          src={link.qr}
          alt={`Código QR de ${link.title}`}
          width={96}
          height={96}
          loading="lazy"
          decoding="async"
          className="size-16 rounded-md bg-white p-1 sm:size-24"
        />
      </div>
      <div className="space-y-1">
        {/* h2: the cards are the sections under the page's h1 'Mis Links' (axe: heading-order). */}
        <h2 className="truncate text-lg font-semibold">
          {/* Stretched over the card: a click anywhere outside the buttons opens the detail. */}
          <Link
            to={workspaceLinkPath(scope, link.id)}
            className="rounded-sm after:absolute after:inset-0 after:rounded-xl hover:text-teal-300 focus-visible:outline-2 focus-visible:outline-teal-300"
          >
            {link.title}
          </Link>
        </h2>
        <p className="flex items-center gap-2">
          <span className="truncate font-medium text-teal-300">{displayAddress(link.shortLink)}</span>
          <LinkStatusBadge status={link.status} />
        </p>
        <RoutingBadges link={link} />
        <p className="truncate text-sm text-slate-300">{displayAddress(link.originalUrl)}</p>
        <p className="text-xs text-slate-400">
          <time dateTime={link.createdAt}>{formatDateTime(link.createdAt)}</time>
          {' · '}
          {formatCount(link.clicks, nouns.click)}
          {creator && ` · creado por ${creator.name}`}
        </p>
        {linkStateLines(link).map((line) => (
          <p key={line} className="truncate text-xs text-slate-400">
            {line}
          </p>
        ))}
        <TagChips tags={link.tags} />
      </div>
      <div className="relative z-10 col-span-2 flex justify-end gap-2 sm:col-span-1">
        <CopyLinkButton shortLink={link.shortLink} />
        <DownloadQrButton qr={link.qr} title={link.title} />
        {/* A reader may look, not change: the dashboard says why above the list. */}
        {may('write') && <EditLinkButton link={link} />}
        {may('write') && <DeleteLinkButton link={link} />}
      </div>
    </Card>
  );
}
