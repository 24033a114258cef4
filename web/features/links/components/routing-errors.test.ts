import { ruleMessages } from '@common/rules/rule-messages';
import { describe, expect, it } from 'vitest';
import type { RoutingDraft } from './routing-draft';
import { placeRoutingErrors, routingFieldOf, routingProblems } from './routing-errors';

const draft: RoutingDraft = {
  rules: [
    { id: 'a', url: 'https://app.es/', conditions: [{ kind: 'device', values: ['mobile'] }] },
    {
      id: 'b',
      url: 'https://mx.es/',
      conditions: [
        { kind: 'country', values: ['MX'] },
        { kind: 'dates', from: '2026-01-01T00:00', until: '' },
      ],
    },
  ],
  variants: [
    { id: 'x', url: 'https://a.es/', weight: 50 },
    { id: 'y', url: 'https://b.es/', weight: 50 },
  ],
  redirectType: 302,
};

describe('messages about rules and variants under their fields', () => {
  it('places an API path on the field it names', () => {
    expect(routingFieldOf('rules.1.url', draft)).toBe('rule-b-url');
    expect(routingFieldOf('rules.1.when.country.0', draft)).toBe('rule-b-country');
    expect(routingFieldOf('rules.1.when.until', draft)).toBe('rule-b-until');
    expect(routingFieldOf('rules.0.when', draft)).toBe('rule-a-when');
    expect(routingFieldOf('variants.1.weight', draft)).toBe('variant-y-weight');
    expect(routingFieldOf('variants.0.url', draft)).toBe('variant-x-url');
    expect(routingFieldOf('redirectType', draft)).toBe('link-redirectType');
    // Slashes, as a JSON pointer has them.
    expect(routingFieldOf('/rules/0/url', draft)).toBe('rule-a-url');
  });

  it('falls back to the nearest field that holds the path', () => {
    // A condition the rule no longer has: the rule's conditions.
    expect(routingFieldOf('rules.0.when.language', draft)).toBe('rule-a-when');
    expect(routingFieldOf('rules.0', draft)).toBe('rule-a');
    // A rule or variant past the end, or the list itself: the section.
    expect(routingFieldOf('rules.7.url', draft)).toBe('routing-rules');
    expect(routingFieldOf('rules', draft)).toBe('routing-rules');
    expect(routingFieldOf('variants', draft)).toBe('routing-variants');
    expect(routingFieldOf('variants.4.weight', draft)).toBe('routing-variants');
    expect(routingFieldOf('longUrl', draft)).toBeNull();
  });

  it('keeps every message once, leaving the other fields to the form', () => {
    const placed = placeRoutingErrors(
      {
        'rules.1.url': [ruleMessages.loop],
        'rules.1.when.country.0': [ruleMessages.countryInvalid('XX')],
        'rules.1.when.country.1': [ruleMessages.countryInvalid('XX')],
        variants: [ruleMessages.weightsSum],
        longUrl: ['Otra cosa'],
      },
      draft,
    );
    expect(placed).toEqual({
      'rule-b-url': [ruleMessages.loop],
      'rule-b-country': [ruleMessages.countryInvalid('XX')],
      'routing-variants': [ruleMessages.weightsSum],
    });
  });

  it('checks the form with the API’s own schema, keyed like the API', () => {
    expect(routingProblems(draft)).toEqual({});
    const bad: RoutingDraft = {
      rules: [
        { id: 'a', url: '', conditions: [{ kind: 'device', values: [] }] },
        { id: 'b', url: 'https://x.es/', conditions: [{ kind: 'dates', from: '', until: '' }] },
        { id: 'c', url: 'https://x.es/', conditions: [{ kind: 'query', pairs: [{ name: 'a', value: '*' }, { name: 'a', value: '1' }] }] },
      ],
      variants: [
        { id: 'x', url: 'https://a.es/', weight: 50 },
        { id: 'y', url: 'https://b.es/', weight: 40 },
      ],
      redirectType: 302,
    };
    const problems = routingProblems(bad);
    expect(problems['rules.0.when.device']).toEqual([ruleMessages.listEmpty]);
    expect(problems['rules.0.url']?.length).toBeGreaterThan(0);
    expect(problems['rules.1.when']).toEqual([ruleMessages.ruleNeedsCondition]);
    expect(problems['rules.1.when.from']).toEqual(['Indica al menos una de las dos fechas, o quita la condición']);
    expect(problems['rules.2.when.query']).toEqual(['Ese parámetro ya está en la regla']);
    expect(problems.variants).toEqual([ruleMessages.weightsSum]);
    const placed = placeRoutingErrors(problems, bad);
    expect(Object.keys(placed).sort()).toEqual(['routing-variants', 'rule-a-device', 'rule-a-url', 'rule-b-from', 'rule-b-when', 'rule-c-query']);
  });

  it('says a rule past the twentieth is one too many', () => {
    const many: RoutingDraft = {
      ...draft,
      variants: null,
      rules: Array.from({ length: 21 }, (_, index) => ({ id: `r${index}`, url: 'https://x.es/', conditions: [{ kind: 'device' as const, values: ['mobile' as const] }] })),
    };
    expect(placeRoutingErrors(routingProblems(many), many)).toEqual({ 'routing-rules': [ruleMessages.tooManyRules] });
  });
});
