import { describe, expect, it } from 'vitest';
import { authMessages as m } from '@common/auth/auth-messages';
import { registerFieldsSchema } from '@common/auth/auth-schemas';

const person = { email: 'ana@corto.test', password: 'secreto-123' };
const nameMessages = (name: string) =>
  (registerFieldsSchema.safeParse({ ...person, name }).error?.issues ?? []).map((issue) => issue.message);

describe('registerFieldsSchema name', () => {
  it('refuses bidirectional controls, which can show a name backwards in every list it appears in', () => {
    for (const mark of ['\u202e', '\u202d', '\u2066', '\u2067', '\u2068', '\u2069', '\u200f', '\u061c']) {
      expect(nameMessages(`Ana${mark}nimda`)).toEqual([m.nameBidi]);
    }
  });

  it('keeps right-to-left and accented names', () => {
    for (const name of ['José Ñúñez', 'דנה כהן', 'ليلى أحمد']) expect(nameMessages(name)).toEqual([]);
  });
});
