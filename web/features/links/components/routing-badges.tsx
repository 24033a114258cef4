import type { Link } from '@common/links/link-schemas';
import { ruleEditorMessages as m } from '@common/rules/rule-editor-messages';
import { Split, Waypoints } from 'lucide-react';
import { routingOf } from './link-routing';

const badgeClass = 'inline-flex shrink-0 items-center gap-1 rounded-full border px-2 py-0.5 text-xs font-medium whitespace-nowrap [&_svg]:size-3';

/** «Reglas» when a link has rules, «Prueba A/B» when a test is running: on the card and the detail page. */
export function RoutingBadges({ link, className = 'flex flex-wrap gap-1.5' }: { link: Link; className?: string }) {
  const { rules, variants } = routingOf(link);
  if (rules.length === 0 && !variants) return null;
  return (
    <p className={className}>
      {rules.length > 0 && (
        <span className={`${badgeClass} border-sky-400/40 bg-sky-400/10 text-sky-200`}>
          <Waypoints aria-hidden />
          {m.badgeRules}
        </span>
      )}
      {variants && (
        <span className={`${badgeClass} border-violet-400/40 bg-violet-400/10 text-violet-200`}>
          <Split aria-hidden />
          {m.badgeTest}
        </span>
      )}
    </p>
  );
}
