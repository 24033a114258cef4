import { randomInt } from 'node:crypto';
import { SHORT_CODE_LENGTH } from '@common/constants';

const BASE_36 = '0123456789abcdefghijklmnopqrstuvwxyz';

/** A random short code: 6 base-36 characters (36^6 ≈ 2.2 billion), drawn from the CSPRNG so codes cannot be guessed in sequence. */
export function newShortCode(): string {
  let code = '';
  for (let i = 0; i < SHORT_CODE_LENGTH; i += 1) code += BASE_36[randomInt(BASE_36.length)];
  return code;
}
