import { conditionKindLabels, ruleEditorMessages as m } from '@common/rules/rule-editor-messages';
import { RULES_PER_LINK } from '@common/rules/rule-messages';
import { ArrowDown, ArrowUp, Plus, Trash2 } from 'lucide-react';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { FieldError, fieldErrorId } from '../../../components/ui/field-error';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { ConditionEditor } from './condition-editor';
import {
  addCondition,
  availableKinds,
  type ConditionKind,
  moveRule,
  newRule,
  removeCondition,
  replaceCondition,
  type RuleDraft,
} from './routing-draft';
import { routingAreaIds, ruleFieldId } from './routing-errors';

type RulesSectionProps = {
  rules: RuleDraft[];
  onChange: (rules: RuleDraft[]) => void;
  /** Messages by the dialog's field id (see routing-errors). */
  errors: Readonly<Record<string, string[]>>;
  /** The «Probar» box, at the end of the section. */
  probe: ReactNode;
};

/** «Reglas»: the link's rules in order, each a URL and its conditions; add, reorder, remove. */
export function RulesSection({ rules, onChange, errors, probe }: RulesSectionProps) {
  const [announcement, setAnnouncement] = useState('');
  // Where focus goes once the list has re-rendered: a moved rule's button, a new rule's URL...
  const focusNext = useRef<string | null>(null);
  useEffect(() => {
    if (!focusNext.current) return;
    document.getElementById(focusNext.current)?.focus();
    focusNext.current = null;
  });

  const full = rules.length >= RULES_PER_LINK;
  const change = (index: number, rule: RuleDraft) => onChange(rules.map((current, position) => (position === index ? rule : current)));
  const move = (index: number, delta: -1 | 1) => {
    const to = index + delta;
    const rule = rules[index]!;
    // On the same button, or on the other one when this one can go no further.
    const direction = delta < 0 ? (to === 0 ? 'down' : 'up') : to === rules.length - 1 ? 'up' : 'down';
    focusNext.current = `${ruleFieldId(rule.id)}-${direction}`;
    onChange(moveRule(rules, index, delta));
    setAnnouncement(m.moved(index + 1, to + 1, rules.length));
  };
  const remove = (index: number) => {
    const next = rules[index + 1] ?? rules[index - 1];
    focusNext.current = next ? `${ruleFieldId(next.id)}-heading` : 'routing-add-rule';
    onChange(rules.filter((_, position) => position !== index));
    setAnnouncement(m.removed(index + 1));
  };
  const add = () => {
    const rule = newRule();
    focusNext.current = ruleFieldId(rule.id, 'url');
    onChange([...rules, rule]);
    setAnnouncement('');
  };

  return (
    <fieldset className="grid gap-3 rounded-lg border border-slate-700 p-4" aria-describedby={`routing-rules-help ${fieldErrorId(routingAreaIds.rules)}`}>
      <legend className="px-1 text-sm font-medium text-slate-200">{m.rulesTitle}</legend>
      <p id="routing-rules-help" className="text-sm text-slate-300">
        {m.rulesHelp}
      </p>
      {rules.length > 0 && (
        <ol className="grid gap-3">
          {rules.map((rule, index) => (
            <li key={rule.id}>
              <RuleEditor
                rule={rule}
                position={index + 1}
                count={rules.length}
                errors={errors}
                onChange={(changed) => change(index, changed)}
                onMove={(delta) => move(index, delta)}
                onRemove={() => remove(index)}
                focusAfter={(id) => (focusNext.current = id)}
              />
            </li>
          ))}
        </ol>
      )}
      <FieldError fieldId={routingAreaIds.rules} messages={errors[routingAreaIds.rules]} />
      <div className="flex flex-wrap items-center gap-3">
        <Button id="routing-add-rule" variant="outline" size="sm" onClick={add} disabled={full}>
          <Plus aria-hidden />
          {m.addRule}
        </Button>
        <span className="text-xs text-slate-400">{full ? m.rulesFull : m.rulesCount(rules.length)}</span>
      </div>
      <p role="status" className="sr-only">
        {announcement}
      </p>
      {probe}
    </fieldset>
  );
}

type RuleEditorProps = {
  rule: RuleDraft;
  position: number;
  count: number;
  errors: Readonly<Record<string, string[]>>;
  onChange: (rule: RuleDraft) => void;
  onMove: (delta: -1 | 1) => void;
  onRemove: () => void;
  focusAfter: (id: string) => void;
};

function RuleEditor({ rule, position, count, errors, onChange, onMove, onRemove, focusAfter }: RuleEditorProps) {
  const [menuOpen, setMenuOpen] = useState(false);
  const menuId = useId();
  const baseId = ruleFieldId(rule.id);
  const urlId = ruleFieldId(rule.id, 'url');
  const whenId = ruleFieldId(rule.id, 'when');
  const kinds = availableKinds(rule);
  const urlMessages = errors[urlId] ?? [];

  const pick = (kind: ConditionKind) => {
    setMenuOpen(false);
    focusAfter(ruleFieldId(rule.id, kind));
    onChange(addCondition(rule, kind));
  };
  const drop = (kind: ConditionKind) => {
    focusAfter(`${baseId}-add-condition`);
    onChange(removeCondition(rule, kind));
  };

  return (
    <section aria-labelledby={`${baseId}-heading`} className="grid gap-3 rounded-lg border border-slate-700 bg-slate-900/60 p-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={`${baseId}-heading`} tabIndex={-1} className="text-sm font-semibold text-slate-100 focus-visible:outline-2 focus-visible:outline-teal-300">
          {m.ruleTitle(position)}
        </h3>
        <div className="flex gap-1">
          <Button id={`${baseId}-up`} size="icon" variant="ghost" className="size-8" aria-label={m.moveUp(position)} title="Subir" disabled={position === 1} onClick={() => onMove(-1)}>
            <ArrowUp aria-hidden />
          </Button>
          <Button id={`${baseId}-down`} size="icon" variant="ghost" className="size-8" aria-label={m.moveDown(position)} title="Bajar" disabled={position === count} onClick={() => onMove(1)}>
            <ArrowDown aria-hidden />
          </Button>
          <Button size="icon" variant="ghost" className="size-8 text-red-300 hover:text-red-200" aria-label={m.removeRule(position)} title="Quitar" onClick={onRemove}>
            <Trash2 aria-hidden />
          </Button>
        </div>
      </div>
      <FieldError fieldId={baseId} messages={errors[baseId]} />
      <div className="grid gap-1">
        <Label htmlFor={urlId}>{m.ruleUrl}</Label>
        <Input
          id={urlId}
          type="url"
          inputMode="url"
          autoComplete="off"
          placeholder="https://ejemplo.com/otra-pagina"
          value={rule.url}
          onChange={(event) => onChange({ ...rule, url: event.target.value })}
          aria-invalid={urlMessages.length > 0 || undefined}
          aria-describedby={fieldErrorId(urlId)}
        />
        <FieldError fieldId={urlId} messages={urlMessages} />
      </div>
      {/* The hint gives way to the message when there is one. */}
      {!errors[whenId] && <p className="text-xs text-slate-400">{rule.conditions.length === 0 ? m.ruleNoConditions : m.ruleAllConditions}</p>}
      {rule.conditions.map((condition) => (
        <ConditionEditor
          key={condition.kind}
          ruleId={rule.id}
          condition={condition}
          errors={errors}
          onChange={(changed) => onChange(replaceCondition(rule, changed))}
          onRemove={() => drop(condition.kind)}
        />
      ))}
      <FieldError fieldId={whenId} messages={errors[whenId]} />
      {kinds.length > 0 && (
        // An inline menu rather than a popup: nothing to clip in the dialog's scrolling body.
        <div className="grid gap-2">
          <Button
            id={`${baseId}-add-condition`}
            size="sm"
            variant="secondary"
            className="justify-self-start"
            aria-expanded={menuOpen}
            aria-controls={menuId}
            onClick={() => setMenuOpen((open) => !open)}
          >
            <Plus aria-hidden />
            {m.addCondition}
          </Button>
          {menuOpen && (
            <ul id={menuId} aria-label={m.addCondition} className="flex flex-wrap gap-1.5">
              {kinds.map((kind) => (
                <li key={kind}>
                  <Button size="sm" variant="outline" onClick={() => pick(kind)}>
                    {conditionKindLabels[kind]}
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}
