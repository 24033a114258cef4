import type { Link } from '@common/links/link-schemas';
import { ruleEditorMessages as m, variantLetter } from '@common/rules/rule-editor-messages';
import { redirectTypeLabels, ruleMessages } from '@common/rules/rule-messages';
import { messageOf } from '../../../api/client';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import { toast } from '../../../components/ui/toaster';
import { useCurrentWorkspace } from '../../workspaces/current-workspace';
import { useChooseWinner } from '../api/choose-winner';
import { readableUrl } from './link-format';
import { routingOf } from './link-routing';
import { conditionSummary } from './rule-summary';

/**
 * Where the link sends whom, on its detail page: its rules in order, its A/B test (each variant
 * with «Elegir ganador») and a redirect status other than 302.
 */
export function RoutingSummary({ link }: { link: Link }) {
  const { rules, variants, redirectType } = routingOf(link);
  const canWrite = useCurrentWorkspace().may('write');
  const winner = useChooseWinner();
  if (rules.length === 0 && !variants && redirectType === 302) return null;

  return (
    <div className="space-y-4">
      {rules.length > 0 && (
        <section aria-labelledby="link-rules" className="space-y-2">
          <h2 id="link-rules" className="text-sm font-semibold text-slate-200">
            {m.rulesTitle}
          </h2>
          <ol className="space-y-2 text-sm">
            {rules.map((rule, index) => (
              <li key={index} className="rounded-md border border-slate-800 bg-slate-950/40 px-3 py-2">
                <p className="font-medium text-slate-100">{m.ruleTitle(index + 1)}</p>
                <p className="text-slate-300">{conditionSummary(rule.when)}</p>
                <p className="break-all text-teal-200">→ {readableUrl(rule.url)}</p>
              </li>
            ))}
          </ol>
        </section>
      )}
      {variants && (
        <section aria-labelledby="link-test" className="space-y-2">
          <h2 id="link-test" className="text-sm font-semibold text-slate-200">
            {m.testRunning}
          </h2>
          <ul className="space-y-2 text-sm">
            {variants.map((variant, index) => {
              const letter = variantLetter(index);
              return (
                <li key={index} className="flex flex-wrap items-center gap-x-3 gap-y-2 rounded-md border border-slate-800 bg-slate-950/40 px-3 py-2">
                  <span className="font-medium text-slate-100">{m.variantTitle(letter)}</span>
                  <span className="tabular-nums text-slate-300">{variant.weight} %</span>
                  <span className="min-w-0 flex-1 basis-48 break-all text-teal-200">{readableUrl(variant.url)}</span>
                  {canWrite && (
                    <ConfirmButton
                      size="sm"
                      variant="outline"
                      aria-label={m.chooseWinnerLabel(letter)}
                      loading={winner.isPending && winner.variables?.index === index}
                      title={m.chooseWinnerTitle(letter)}
                      description={m.chooseWinnerDescription(readableUrl(variant.url))}
                      confirmLabel={m.chooseWinnerConfirm}
                      onConfirm={() =>
                        winner.mutate(
                          { id: link.id, index },
                          {
                            onSuccess: () => toast(m.winnerChosen(letter), 'success'),
                            onError: (error) => toast(`${m.winnerFailed} ${messageOf(error)}`),
                          },
                        )
                      }
                    >
                      {m.chooseWinner}
                    </ConfirmButton>
                  )}
                </li>
              );
            })}
          </ul>
        </section>
      )}
      {redirectType !== 302 && (
        <p className="text-sm text-slate-300">
          {m.redirectType}: {redirectTypeLabels[redirectType]}
          {(redirectType === 301 || redirectType === 308) && <span className="block text-xs text-slate-400">{ruleMessages.cachedRedirect}</span>}
        </p>
      )}
    </div>
  );
}
