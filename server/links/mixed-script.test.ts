import { describe, expect, it } from 'vitest';
import { aliasProblems } from '@common/links/link-schemas';
import { linkMessages as m } from '@common/links/link-messages';
import { isSingleScript } from '@common/links/mixed-script';

describe('isSingleScript (UTS #39, Highly Restrictive)', () => {
  it("refuses letters of two scripts side by side: 'Ñоqui' with a Cyrillic 'о'", () => {
    for (const text of ['Ñ\u043Equi', 'p\u0430ypal', 'Ελλάδa', 'שלוםabc', '東京Москва', 'abc\u0661']) expect(isSingleScript(text), text).toBe(false);
    expect(aliasProblems('Ñ\u043Equi')).toEqual([m.aliasMixedScripts]);
  });

  it('takes one script, with digits, hyphens and accents, and Latin beside Japanese, Korean or Chinese', () => {
    for (const text of ['Ñoquis', '東京', 'пример', 'Ελλάδα_2', 'नमस्ते', 'canción-2026', 'とうきょう東京タワー', 'Tokyo東京', '서울Seoul', 'e\u0301', '2026', '-_-']) {
      expect(isSingleScript(text), text).toBe(true);
    }
    // '東京' is too short for an alias, but of one script.
    expect(aliasProblems('東京')).toEqual([m.aliasLength]);
    expect(aliasProblems('пример')).toEqual([]);
  });
});
