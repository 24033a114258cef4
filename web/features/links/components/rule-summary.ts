import { conditionKindLabels } from '@common/rules/rule-editor-messages';
import { browserLabels, deviceLabels, osLabels } from '@common/rules/rule-messages';
import type { RuleCondition } from '@common/rules/rule-schemas';
import { formatDateTime } from '../../../lib/format';
import { countryName, languageName } from './code-names';

/** A rule's conditions in a line: «Sistema: iOS · País: España, México · Desde 1 dic 2026, 9:00». */
export function conditionSummary(when: RuleCondition): string {
  const parts: string[] = [];
  const list = (kind: keyof typeof conditionKindLabels, names: string[]) => parts.push(`${conditionKindLabels[kind]}: ${names.join(', ')}`);
  if (when.device) list('device', when.device.map((value) => deviceLabels[value]));
  if (when.os) list('os', when.os.map((value) => osLabels[value]));
  if (when.browser) list('browser', when.browser.map((value) => browserLabels[value]));
  if (when.country) list('country', when.country.map(countryName));
  if (when.language) list('language', when.language.map(languageName));
  if (when.query) list('query', Object.entries(when.query).map(([name, value]) => (value === '*' ? `${name} (cualquier valor)` : `${name}=${value}`)));
  if (when.from) parts.push(`Desde el ${formatDateTime(when.from)}`);
  if (when.until) parts.push(`Hasta el ${formatDateTime(when.until)}`);
  return parts.join(' · ');
}
