import { ruleEditorMessages as m } from '@common/rules/rule-editor-messages';
import { redirectTypeLabels, ruleMessages } from '@common/rules/rule-messages';
import { type RedirectType, redirectTypes } from '@common/rules/rule-schemas';
import { FieldError, fieldErrorId } from '../../../components/ui/field-error';
import { Label } from '../../../components/ui/label';
import { routingAreaIds } from './routing-errors';

export const selectClass =
  'h-10 w-full min-w-0 rounded-lg border border-slate-700 bg-slate-900 px-3 text-sm text-slate-100 focus-visible:outline-2 focus-visible:outline-teal-300 aria-invalid:border-red-400';

/** «Tipo de redirección»: 302 unless chosen; 301 and 308 come with what browsers do with them. */
export function RedirectTypeField({ value, onChange, messages }: { value: RedirectType; onChange: (value: RedirectType) => void; messages: readonly string[] | undefined }) {
  const id = routingAreaIds.redirectType;
  const cached = value === 301 || value === 308;
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{m.redirectType}</Label>
      <select
        id={id}
        value={value}
        onChange={(event) => onChange(Number(event.target.value) as RedirectType)}
        aria-invalid={(messages?.length ?? 0) > 0 || undefined}
        aria-describedby={`${cached ? `${id}-note ` : ''}${fieldErrorId(id)}`}
        className={selectClass}
      >
        {redirectTypes.map((status) => (
          <option key={status} value={status}>
            {redirectTypeLabels[status]}
          </option>
        ))}
      </select>
      {cached && (
        <p id={`${id}-note`} className="rounded-md border border-amber-400/40 bg-amber-400/10 px-3 py-2 text-sm text-amber-100">
          {ruleMessages.cachedRedirect}
        </p>
      )}
      <FieldError fieldId={id} messages={messages} />
    </div>
  );
}
