import { describe, expect, it } from 'vitest';
import {
  addCondition,
  availableKinds,
  conditionsOf,
  moveRule,
  newRule,
  removeCondition,
  replaceCondition,
  routingDraftOf,
  rulesOf,
  toggleValue,
  whenOf,
} from './routing-draft';

describe('the rules as the dialog edits them', () => {
  it('offers each condition kind once per rule, in the menu’s order', () => {
    let rule = newRule();
    expect(availableKinds(rule)).toEqual(['device', 'os', 'browser', 'country', 'language', 'query', 'dates']);
    rule = addCondition(rule, 'country');
    rule = addCondition(rule, 'device');
    expect(rule.conditions.map((condition) => condition.kind)).toEqual(['device', 'country']);
    expect(availableKinds(rule)).toEqual(['os', 'browser', 'language', 'query', 'dates']);
    expect(addCondition(rule, 'device')).toBe(rule);
    rule = removeCondition(rule, 'device');
    expect(rule.conditions.map((condition) => condition.kind)).toEqual(['country']);
  });

  it('toggles the values of a list condition', () => {
    let rule = addCondition(newRule(), 'os');
    const os = rule.conditions[0]!;
    if (os.kind !== 'os') throw new Error('os expected');
    const withIos = toggleValue(os, 'ios');
    const withBoth = toggleValue(withIos, 'android');
    expect(withBoth.values).toEqual(['ios', 'android']);
    expect(toggleValue(withBoth, 'ios').values).toEqual(['android']);
    rule = replaceCondition(rule, withBoth);
    expect(whenOf(rule.conditions)).toEqual({ os: ['ios', 'android'] });
  });

  it('writes the conditions as the API takes them, and reads them back', () => {
    const rule = {
      id: 'r',
      url: ' https://ejemplo.es/app ',
      conditions: [
        { kind: 'device' as const, values: ['mobile' as const] },
        { kind: 'country' as const, values: ['ES', 'MX'] },
        { kind: 'language' as const, values: ['es'] },
        {
          kind: 'query' as const,
          pairs: [
            { name: ' ref ', value: 'qr' },
            { name: 'utm_source', value: '*' },
          ],
        },
        { kind: 'dates' as const, from: '2026-12-01T09:00', until: '' },
      ],
    };
    const [api] = rulesOf([rule]);
    expect(api).toEqual({
      url: 'https://ejemplo.es/app',
      when: {
        device: ['mobile'],
        country: ['ES', 'MX'],
        language: ['es'],
        query: { ref: 'qr', utm_source: '*' },
        from: new Date('2026-12-01T09:00').toISOString(),
      },
    });
    const back = routingDraftOf({ rules: [api!], variants: null, redirectType: 302 });
    // Read back as typed, the parameter's name trimmed.
    const [, , , query] = rule.conditions;
    expect(back.rules[0]!.conditions).toEqual([...rule.conditions.slice(0, 3), { ...query, pairs: [{ name: 'ref', value: 'qr' }, { name: 'utm_source', value: '*' }] }, rule.conditions[4]]);
  });

  it('keeps an empty list so the schema can say so, and leaves out empty dates', () => {
    expect(whenOf([{ kind: 'device', values: [] }])).toEqual({ device: [] });
    expect(whenOf([{ kind: 'dates', from: '', until: '' }])).toEqual({});
    expect(conditionsOf({ until: '2027-01-01T00:00:00.000Z' })).toEqual([{ kind: 'dates', from: '', until: expect.stringMatching(/^2026-12-31T|^2027-01-01T/) }]);
  });

  it('moves a rule up or down, and not past the edges', () => {
    expect(moveRule(['a', 'b', 'c'], 2, -1)).toEqual(['a', 'c', 'b']);
    expect(moveRule(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(moveRule(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moveRule(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'b', 'c']);
  });

  it('gives every rule and variant an id of its own', () => {
    const draft = routingDraftOf({
      rules: [
        { when: { device: ['mobile'] }, url: 'https://a.es/' },
        { when: { device: ['tablet'] }, url: 'https://b.es/' },
      ],
      variants: [
        { url: 'https://a.es/', weight: 50 },
        { url: 'https://b.es/', weight: 50 },
      ],
      redirectType: 301,
    });
    const ids = [...draft.rules, ...draft.variants!].map((item) => item.id);
    expect(new Set(ids).size).toBe(4);
    expect(draft.redirectType).toBe(301);
  });
});
