import { ruleEditorMessages } from '@common/rules/rule-editor-messages';
import { redirectTypeSchema, rulesSchema, variantsSchema } from '@common/rules/rule-schemas';
import { type ConditionKind, conditionKinds, draftProblems, type RoutingDraft, rulesOf, variantsOf } from './routing-draft';

// Messages about rules and variants, from the schema in the page or from the API (`error.fields`,
// keyed by the body's path: 'rules.3.url', 'variants.1.weight', 'rules.0.when.country.2'), put under
// the field of the dialog they are about. A path the dialog has no field for goes to the nearest
// one that holds it: the rule, else the section.

/** Ids of the sections' own message areas (and of the select). */
export const routingAreaIds = { rules: 'routing-rules', variants: 'routing-variants', redirectType: 'link-redirectType' } as const;

export const ruleFieldId = (ruleId: string, part?: 'url' | 'when' | ConditionKind | 'from' | 'until') =>
  part ? `rule-${ruleId}-${part}` : `rule-${ruleId}`;
export const variantFieldId = (variantId: string, part: 'url' | 'weight') => `variant-${variantId}-${part}`;

/** The dialog's field for an API path; null when it is not about rules, variants or the redirect status. */
export function routingFieldOf(path: string, draft: RoutingDraft): string | null {
  const [root, position, part, sub] = path.replace(/^\//, '').split(/[./]/);
  if (root === 'redirectType') return routingAreaIds.redirectType;
  if (root === 'rules') {
    const rule = position !== undefined && /^\d+$/.test(position) ? draft.rules[Number(position)] : undefined;
    if (!rule) return routingAreaIds.rules;
    if (part === 'url') return ruleFieldId(rule.id, 'url');
    if (part !== 'when') return ruleFieldId(rule.id);
    if (sub === 'from' || sub === 'until') return rule.conditions.some((c) => c.kind === 'dates') ? ruleFieldId(rule.id, sub) : ruleFieldId(rule.id, 'when');
    const kind = conditionKinds.find((candidate) => candidate === sub);
    if (kind && rule.conditions.some((condition) => condition.kind === kind)) return ruleFieldId(rule.id, kind);
    return ruleFieldId(rule.id, 'when');
  }
  if (root === 'variants') {
    const variant = position !== undefined && /^\d+$/.test(position) ? draft.variants?.[Number(position)] : undefined;
    if (!variant) return routingAreaIds.variants;
    if (part === 'url' || part === 'weight') return variantFieldId(variant.id, part);
    return routingAreaIds.variants;
  }
  return null;
}

/** Messages keyed by API path, placed by the dialog's field id (each message once). */
export function placeRoutingErrors(fields: Readonly<Record<string, readonly string[] | undefined>>, draft: RoutingDraft): Record<string, string[]> {
  const placed: Record<string, string[]> = {};
  for (const [path, messages] of Object.entries(fields)) {
    const id = routingFieldOf(path, draft);
    if (!id || !messages) continue;
    for (const message of messages) if (!placed[id]?.includes(message)) (placed[id] ??= []).push(message);
  }
  return placed;
}

function collect(into: Record<string, string[]>, root: string, issues: readonly { path: readonly PropertyKey[]; message: string }[]) {
  for (const issue of issues) {
    const path = [root, ...issue.path.map(String)].join('.');
    (into[path] ??= []).push(issue.message);
  }
}

/** What the schema (the API's own) says about the dialog's rules, variants and status, keyed by API path. */
export function routingProblems(draft: RoutingDraft): Record<string, string[]> {
  const problems: Record<string, string[]> = draftProblems(draft.rules, ruleEditorMessages);
  const rules = rulesSchema.safeParse(rulesOf(draft.rules));
  if (!rules.success) collect(problems, 'rules', rules.error.issues);
  if (draft.variants) {
    const variants = variantsSchema.safeParse(variantsOf(draft.variants));
    if (!variants.success) collect(problems, 'variants', variants.error.issues);
  }
  const redirectType = redirectTypeSchema.safeParse(draft.redirectType);
  if (!redirectType.success) collect(problems, 'redirectType', redirectType.error.issues);
  return problems;
}
