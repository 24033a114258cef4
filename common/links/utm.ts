import { mergeQuery, pairKey, pairValue, queryPair } from './query-merge';

// The UTM builder of the create and edit dialogs: five campaign fields merged into the
// destination's own query, its other parameters and its fragment left as they were.

export const utmFields = ['source', 'medium', 'campaign', 'term', 'content'] as const;
export type UtmField = (typeof utmFields)[number];
export type UtmValues = Record<UtmField, string>;

export const utmLabels: Record<UtmField, string> = {
  source: 'Origen (utm_source)',
  medium: 'Medio (utm_medium)',
  campaign: 'Campaña (utm_campaign)',
  term: 'Término (utm_term)',
  content: 'Contenido (utm_content)',
};

export const emptyUtm: UtmValues = { source: '', medium: '', campaign: '', term: '', content: '' };

/** The UTM values a destination carries already (the edit dialog starts from them). */
export function utmOf(url: string): UtmValues {
  const values = { ...emptyUtm };
  const query = url.split('#')[0]!.split('?')[1] ?? '';
  for (const pair of query.split('&')) {
    const key = pairKey(pair);
    const field = utmFields.find((name) => `utm_${name}` === key);
    if (field && values[field] === '') values[field] = pairValue(pair);
  }
  return values;
}

/**
 * The destination with the builder's changes: a field changed from `initial` (what the destination
 * carried when the dialog opened; empty when creating) sets its utm_ parameter, in place when there
 * is one, and a field emptied removes it; untouched fields leave the URL as it was. Values are trimmed.
 */
export function withUtm(url: string, values: UtmValues, initial: UtmValues = emptyUtm): string {
  const changes = utmFields
    .filter((field) => values[field].trim() !== initial[field].trim())
    .map((field) => {
      const value = values[field].trim();
      return { key: `utm_${field}`, pairs: value === '' ? [] : [queryPair(`utm_${field}`, value)] };
    });
  return mergeQuery(url, changes);
}
