import { conditionKindLabels, ruleEditorMessages as m } from '@common/rules/rule-editor-messages';
import { browserLabels, deviceLabels, osLabels, QUERY_CONDITIONS_MAX } from '@common/rules/rule-messages';
import { ruleBrowsers, ruleDevices, ruleSystems } from '@common/rules/rule-schemas';
import { Plus, X } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { FieldError, fieldErrorId } from '../../../components/ui/field-error';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { CodePicker } from './code-picker';
import { countryName, languageName } from './code-names';
import { countryOptions, languageOptions, suggestedLanguages, typedLanguageCode } from './code-options';
import type { ConditionDraft, QueryPair } from './routing-draft';
import { toggleValue } from './routing-draft';
import { ruleFieldId } from './routing-errors';

type ConditionEditorProps = {
  ruleId: string;
  condition: ConditionDraft;
  onChange: (condition: ConditionDraft) => void;
  onRemove: () => void;
  errors: Readonly<Record<string, string[]>>;
};

const checkboxClass = 'size-4 accent-teal-400';

function Checkboxes<V extends string>({ name, values, labels, chosen, onToggle }: { name: string; values: readonly V[]; labels: Record<V, string>; chosen: readonly V[]; onToggle: (value: V) => void }) {
  return (
    <div className="flex flex-wrap gap-x-4 gap-y-2">
      {values.map((value, index) => (
        <div key={value} className="flex items-center gap-2">
          {/* The first box carries the condition's id: «Añadir condición» moves focus to it. */}
          <input id={index === 0 ? name : `${name}-${value}`} type="checkbox" className={checkboxClass} checked={chosen.includes(value)} onChange={() => onToggle(value)} />
          <Label htmlFor={index === 0 ? name : `${name}-${value}`} className="font-normal">
            {labels[value]}
          </Label>
        </div>
      ))}
    </div>
  );
}

/** One condition of a rule: its values, its messages and its ✕. */
export function ConditionEditor({ ruleId, condition, onChange, onRemove, errors }: ConditionEditorProps) {
  const id = ruleFieldId(ruleId, condition.kind);
  const label = conditionKindLabels[condition.kind];
  const messages = errors[id] ?? [];
  const invalid = messages.length > 0;

  let body;
  switch (condition.kind) {
    case 'device':
      body = <Checkboxes name={id} values={ruleDevices} labels={deviceLabels} chosen={condition.values} onToggle={(value) => onChange(toggleValue(condition, value))} />;
      break;
    case 'os':
      body = <Checkboxes name={id} values={ruleSystems} labels={osLabels} chosen={condition.values} onToggle={(value) => onChange(toggleValue(condition, value))} />;
      break;
    case 'browser':
      body = <Checkboxes name={id} values={ruleBrowsers} labels={browserLabels} chosen={condition.values} onToggle={(value) => onChange(toggleValue(condition, value))} />;
      break;
    case 'country':
      body = (
        <CodePicker
          id={id}
          label={label}
          options={countryOptions()}
          chosen={condition.values}
          nameOf={countryName}
          onChange={(values) => onChange({ ...condition, values })}
          invalid={invalid}
        />
      );
      break;
    case 'language':
      body = (
        <CodePicker
          id={id}
          label={label}
          options={languageOptions()}
          chosen={condition.values}
          nameOf={languageName}
          onChange={(values) => onChange({ ...condition, values })}
          extraCode={typedLanguageCode}
          invalid={invalid}
          suggestions={suggestedLanguages()}
        />
      );
      break;
    case 'query':
      body = <QueryPairs id={id} pairs={condition.pairs} invalid={invalid} onChange={(pairs) => onChange({ ...condition, pairs })} />;
      break;
    case 'dates': {
      const fromId = ruleFieldId(ruleId, 'from');
      const untilId = ruleFieldId(ruleId, 'until');
      body = (
        <div className="grid gap-3 sm:grid-cols-2">
          <div className="grid gap-1">
            {/* The first date carries the condition's id too: focus lands here when it is added. */}
            <Label htmlFor={id}>{m.datesFrom}</Label>
            <Input
              id={id}
              type="datetime-local"
              value={condition.from}
              onChange={(event) => onChange({ ...condition, from: event.target.value })}
              aria-invalid={(errors[fromId]?.length ?? 0) > 0 || undefined}
              aria-describedby={fieldErrorId(fromId)}
            />
            <FieldError fieldId={fromId} messages={errors[fromId]} />
          </div>
          <div className="grid gap-1">
            <Label htmlFor={untilId}>{m.datesUntil}</Label>
            <Input
              id={untilId}
              type="datetime-local"
              value={condition.until}
              onChange={(event) => onChange({ ...condition, until: event.target.value })}
              aria-invalid={(errors[untilId]?.length ?? 0) > 0 || undefined}
              aria-describedby={fieldErrorId(untilId)}
            />
            <FieldError fieldId={untilId} messages={errors[untilId]} />
          </div>
        </div>
      );
      break;
    }
  }

  return (
    // A group named by its heading rather than a fieldset: the ✕ sits beside the name.
    <div role="group" aria-labelledby={`${id}-name`} aria-describedby={fieldErrorId(id)} className="grid gap-2 rounded-md border border-slate-800 bg-slate-950/40 p-3">
      <div className="flex items-center justify-between gap-2">
        <span id={`${id}-name`} className="text-sm font-medium text-slate-200">
          {label}
        </span>
        <Button size="icon" variant="ghost" className="size-8" aria-label={m.removeCondition(label)} title={m.removeCondition(label)} onClick={onRemove}>
          <X aria-hidden />
        </Button>
      </div>
      {body}
      <FieldError fieldId={id} messages={messages} />
    </div>
  );
}

function QueryPairs({ id, pairs, invalid, onChange }: { id: string; pairs: QueryPair[]; invalid: boolean; onChange: (pairs: QueryPair[]) => void }) {
  const set = (index: number, change: Partial<QueryPair>) => onChange(pairs.map((pair, position) => (position === index ? { ...pair, ...change } : pair)));
  return (
    <div className="grid gap-2">
      {pairs.map((pair, index) => {
        // The first name carries the condition's id: focus lands there when it is added.
        const nameId = index === 0 ? id : `${id}-${index}-name`;
        const valueId = `${id}-${index}-value`;
        return (
          <div key={index} className="grid grid-cols-[minmax(0,1fr)_minmax(0,1fr)_auto] items-end gap-2">
            <div className="grid gap-1">
              <Label htmlFor={nameId} className="text-xs">
                {m.queryName}
              </Label>
              <Input
                id={nameId}
                autoComplete="off"
                placeholder="utm_source"
                value={pair.name}
                onChange={(event) => set(index, { name: event.target.value })}
                aria-invalid={invalid || undefined}
                aria-describedby={fieldErrorId(id)}
              />
            </div>
            <div className="grid gap-1">
              <Label htmlFor={valueId} className="text-xs">
                {m.queryValue}
              </Label>
              <Input id={valueId} autoComplete="off" value={pair.value} onChange={(event) => set(index, { value: event.target.value })} aria-describedby={fieldErrorId(id)} />
            </div>
            <Button
              size="icon"
              variant="ghost"
              aria-label={m.removeQuery(pair.name)}
              title={m.removeQuery(pair.name)}
              disabled={pairs.length === 1}
              onClick={() => onChange(pairs.filter((_, position) => position !== index))}
            >
              <X aria-hidden />
            </Button>
          </div>
        );
      })}
      {pairs.length < QUERY_CONDITIONS_MAX && (
        <Button size="sm" variant="ghost" className="justify-self-start" onClick={() => onChange([...pairs, { name: '', value: '*' }])}>
          <Plus aria-hidden />
          {m.addQuery}
        </Button>
      )}
    </div>
  );
}
