import { ALIAS_CHARACTERS } from '@common/links/link-schemas';
import { ALIAS_MAX_LENGTH } from '@common/links/link-messages';

/**
 * `text` brought to NFC (a combining tilde typed as two characters becomes 'ñ'), case kept, when
 * it can be a short code or an alias; undefined otherwise.
 */
export function possibleAddress(text: string): string | undefined {
  const address = text.normalize('NFC');
  const length = [...address].length;
  return length >= 1 && length <= ALIAS_MAX_LENGTH && ALIAS_CHARACTERS.test(address) ? address : undefined;
}

/** possibleAddress of a raw path segment, percent-encoded as browsers send it ('%C3%91oquis'). */
export function addressFromPath(segment: string): string | undefined {
  let text: string;
  try {
    text = decodeURIComponent(segment);
  } catch {
    return undefined; // not valid percent-encoded UTF-8
  }
  return possibleAddress(text);
}
