import type { RedirectType, Rule, RuleBrowser, RuleCondition, RuleDevice, RuleSystem, Variant } from '@common/rules/rule-schemas';
import { conditionKindLabels } from '@common/rules/rule-editor-messages';
import { toLocalInput } from './edit-link-form-schema';
import type { LinkRouting, RoutingChanges } from './link-routing';

// The «Reglas», «Prueba A/B» and «Tipo de redirección» sections as the dialog edits them: each rule
// a list of conditions picked from a menu, each with an id that survives reordering (so a message
// from the server stays under the rule it was about). Plain data and functions: tested without a page.

export type ConditionKind = keyof typeof conditionKindLabels;
export const conditionKinds = Object.keys(conditionKindLabels) as ConditionKind[];

export interface QueryPair {
  name: string;
  /** '*': any value. */
  value: string;
}

export type ConditionDraft =
  | { kind: 'device'; values: RuleDevice[] }
  | { kind: 'os'; values: RuleSystem[] }
  | { kind: 'browser'; values: RuleBrowser[] }
  | { kind: 'country'; values: string[] }
  | { kind: 'language'; values: string[] }
  | { kind: 'query'; pairs: QueryPair[] }
  /** As the datetime-local inputs hold them: local time, '' for none. */
  | { kind: 'dates'; from: string; until: string };

export type ListKind = 'device' | 'os' | 'browser' | 'country' | 'language';

export interface RuleDraft {
  id: string;
  url: string;
  conditions: ConditionDraft[];
}

export interface VariantDraft {
  id: string;
  url: string;
  weight: number;
}

export interface RoutingDraft {
  rules: RuleDraft[];
  /** null: no A/B test. */
  variants: VariantDraft[] | null;
  redirectType: RedirectType;
}

let lastId = 0;
/** An id for a new rule or variant, unique in the page. */
export const newDraftId = (prefix: 'r' | 'v') => `${prefix}${++lastId}`;

export function emptyCondition(kind: ConditionKind): ConditionDraft {
  if (kind === 'query') return { kind, pairs: [{ name: '', value: '*' }] };
  if (kind === 'dates') return { kind, from: '', until: '' };
  return { kind, values: [] };
}

export const newRule = (): RuleDraft => ({ id: newDraftId('r'), url: '', conditions: [] });

/** The conditions of a stored rule, in the menu's order. */
export function conditionsOf(when: RuleCondition): ConditionDraft[] {
  const conditions: ConditionDraft[] = [];
  if (when.device) conditions.push({ kind: 'device', values: [...when.device] });
  if (when.os) conditions.push({ kind: 'os', values: [...when.os] });
  if (when.browser) conditions.push({ kind: 'browser', values: [...when.browser] });
  if (when.country) conditions.push({ kind: 'country', values: [...when.country] });
  if (when.language) conditions.push({ kind: 'language', values: [...when.language] });
  if (when.query) conditions.push({ kind: 'query', pairs: Object.entries(when.query).map(([name, value]) => ({ name, value })) });
  if (when.from !== undefined || when.until !== undefined) {
    conditions.push({ kind: 'dates', from: toLocalInput(when.from ?? null), until: toLocalInput(when.until ?? null) });
  }
  return conditions;
}

export function routingDraftOf(routing: LinkRouting): RoutingDraft {
  return {
    rules: routing.rules.map((rule) => ({ id: newDraftId('r'), url: rule.url, conditions: conditionsOf(rule.when) })),
    variants: routing.variants ? routing.variants.map((variant) => ({ id: newDraftId('v'), url: variant.url, weight: variant.weight })) : null,
    redirectType: routing.redirectType,
  };
}

/** A datetime-local value as an ISO instant; the text itself when it is not a date (the schema says so). */
function instantOf(local: string): string {
  const time = Date.parse(local);
  return Number.isNaN(time) ? local : new Date(time).toISOString();
}

/** A rule's conditions as the API takes them (`when`). Empty lists are kept: the schema names them. */
export function whenOf(conditions: readonly ConditionDraft[]): RuleCondition {
  const when: RuleCondition = {};
  for (const condition of conditions) {
    switch (condition.kind) {
      case 'device':
        when.device = [...condition.values];
        break;
      case 'os':
        when.os = [...condition.values];
        break;
      case 'browser':
        when.browser = [...condition.values];
        break;
      case 'country':
        when.country = [...condition.values];
        break;
      case 'language':
        when.language = [...condition.values];
        break;
      case 'query':
        when.query = Object.fromEntries(condition.pairs.map((pair) => [pair.name.trim(), pair.value]));
        break;
      case 'dates':
        if (condition.from.trim() !== '') when.from = instantOf(condition.from);
        if (condition.until.trim() !== '') when.until = instantOf(condition.until);
        break;
    }
  }
  return when;
}

export function rulesOf(drafts: readonly RuleDraft[]): Rule[] {
  return drafts.map((draft) => ({ when: whenOf(draft.conditions), url: draft.url.trim() }));
}

export function variantsOf(drafts: readonly VariantDraft[] | null): Variant[] | null {
  return drafts ? drafts.map((draft) => ({ url: draft.url.trim(), weight: draft.weight })) : null;
}

/** The kinds the «Añadir condición» menu still offers for a rule: each kind once per rule. */
export function availableKinds(rule: RuleDraft): ConditionKind[] {
  return conditionKinds.filter((kind) => !rule.conditions.some((condition) => condition.kind === kind));
}

/** The rule with a new, empty condition of that kind (in the menu's order); unchanged if it has one. */
export function addCondition(rule: RuleDraft, kind: ConditionKind): RuleDraft {
  if (!availableKinds(rule).includes(kind)) return rule;
  const conditions = [...rule.conditions, emptyCondition(kind)];
  conditions.sort((a, b) => conditionKinds.indexOf(a.kind) - conditionKinds.indexOf(b.kind));
  return { ...rule, conditions };
}

export function removeCondition(rule: RuleDraft, kind: ConditionKind): RuleDraft {
  return { ...rule, conditions: rule.conditions.filter((condition) => condition.kind !== kind) };
}

export function replaceCondition(rule: RuleDraft, condition: ConditionDraft): RuleDraft {
  return { ...rule, conditions: rule.conditions.map((current) => (current.kind === condition.kind ? condition : current)) };
}

/** A list condition with the value added, or taken out if it was there. */
export function toggleValue<C extends Extract<ConditionDraft, { values: unknown }>>(condition: C, value: C['values'][number]): C {
  const values = condition.values as string[];
  return {
    ...condition,
    values: values.includes(value) ? values.filter((current) => current !== value) : [...values, value],
  };
}

/** The rules with the one at `index` moved by `delta` places; unchanged at the edges. */
export function moveRule<T>(rules: readonly T[], index: number, delta: -1 | 1): T[] {
  const target = index + delta;
  if (index < 0 || index >= rules.length || target < 0 || target >= rules.length) return [...rules];
  const moved = [...rules];
  [moved[index], moved[target]] = [moved[target]!, moved[index]!];
  return moved;
}

/**
 * Problems the schema cannot see in the dialog's form (it gets the API's shape): a parameter twice
 * in one rule, a «Fechas» condition with neither date. Keyed like the API's fields.
 */
export function draftProblems(rules: readonly RuleDraft[], messages: { queryDuplicate: string; datesEmpty: string }): Record<string, string[]> {
  const problems: Record<string, string[]> = {};
  rules.forEach((rule, index) => {
    for (const condition of rule.conditions) {
      if (condition.kind === 'query') {
        const names = condition.pairs.map((pair) => pair.name.trim());
        if (new Set(names).size !== names.length) problems[`rules.${index}.when.query`] = [messages.queryDuplicate];
      }
      if (condition.kind === 'dates' && condition.from.trim() === '' && condition.until.trim() === '') {
        problems[`rules.${index}.when.from`] = [messages.datesEmpty];
      }
    }
  });
  return problems;
}

/** The PATCH's part for rules, the test and the status: each only when it differs from how the dialog opened. */
export function routingChanges(draft: RoutingDraft, initial: RoutingDraft): RoutingChanges {
  const changes: RoutingChanges = {};
  const rules = rulesOf(draft.rules);
  if (JSON.stringify(rules) !== JSON.stringify(rulesOf(initial.rules))) changes.rules = rules;
  const variants = variantsOf(draft.variants);
  if (JSON.stringify(variants) !== JSON.stringify(variantsOf(initial.variants))) changes.variants = variants;
  if (draft.redirectType !== initial.redirectType) changes.redirectType = draft.redirectType;
  return changes;
}

/** The messages without those of the rules or variants with these ids (they were just edited). */
export function withoutMessagesOf(errors: Readonly<Record<string, string[]>>, fieldIds: readonly string[]): Record<string, string[]> {
  return Object.fromEntries(Object.entries(errors).filter(([key]) => !fieldIds.some((id) => key === id || key.startsWith(`${id}-`))));
}
