import { ruleEditorMessages as m } from '@common/rules/rule-editor-messages';
import { browserLabels, deviceLabels, osLabels } from '@common/rules/rule-messages';
import { ruleBrowsers, ruleDevices, ruleSystems } from '@common/rules/rule-schemas';
import { type ReactNode, useState } from 'react';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { languageName } from './code-names';
import { countryOptions, languageOptions } from './code-options';
import { defaultProbeVisit, probe, type ProbeVisit, probeWording } from './probe';
import { selectClass } from './redirect-type-field';
import { type RuleDraft, rulesOf, type VariantDraft, variantsOf } from './routing-draft';

type ProbeBoxProps = {
  /** The link's destination as typed. */
  longUrl: string;
  rules: readonly RuleDraft[];
  variants: readonly VariantDraft[] | null;
};

function Select({ id, label, value, onChange, children }: { id: string; label: string; value: string; onChange: (value: string) => void; children: ReactNode }) {
  return (
    <div className="grid gap-1">
      <Label htmlFor={id} className="text-xs">
        {label}
      </Label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value)} className={selectClass}>
        {children}
      </select>
    </div>
  );
}

/**
 * «Probar»: a visit described with selects, and where the form's rules and test would send it,
 * worked out by the redirect's own function as the form changes.
 */
export function ProbeBox({ longUrl, rules, variants }: ProbeBoxProps) {
  const [visit, setVisit] = useState<ProbeVisit>(defaultProbeVisit);
  const set = (change: Partial<ProbeVisit>) => setVisit((current) => ({ ...current, ...change }));
  const result = probeWording(probe({ url: longUrl.trim(), rules: rulesOf(rules), variants: variantsOf(variants) }, visit));
  const unknown = <option value="">{m.probeUnknown}</option>;
  // The common languages, and any other a rule names by its code.
  const named = new Set(languageOptions().map((option) => option.code));
  const ruleLanguages = rules.flatMap((rule) => rule.conditions.flatMap((condition) => (condition.kind === 'language' ? condition.values : [])));
  const languages = [...languageOptions(), ...[...new Set(ruleLanguages)].filter((code) => !named.has(code)).map((code) => ({ code, name: languageName(code) }))];

  return (
    <section aria-labelledby="routing-probe-title" className="grid gap-3 rounded-lg border border-dashed border-slate-700 p-3">
      <h3 id="routing-probe-title" className="text-sm font-semibold text-slate-100">
        {m.probeTitle}
      </h3>
      <p className="text-xs text-slate-400">{m.probeHelp}</p>
      <div className="grid grid-cols-2 gap-2 sm:grid-cols-3">
        <Select id="probe-device" label={m.probeDevice} value={visit.device} onChange={(device) => set({ device: device as ProbeVisit['device'] })}>
          {ruleDevices.map((device) => (
            <option key={device} value={device}>
              {deviceLabels[device]}
            </option>
          ))}
        </Select>
        <Select id="probe-os" label={m.probeOs} value={visit.os} onChange={(os) => set({ os: os as ProbeVisit['os'] })}>
          {unknown}
          {ruleSystems.map((os) => (
            <option key={os} value={os}>
              {osLabels[os]}
            </option>
          ))}
        </Select>
        <Select id="probe-browser" label={m.probeBrowser} value={visit.browser} onChange={(browser) => set({ browser: browser as ProbeVisit['browser'] })}>
          {unknown}
          {ruleBrowsers.map((browser) => (
            <option key={browser} value={browser}>
              {browserLabels[browser]}
            </option>
          ))}
        </Select>
        <Select id="probe-country" label={m.probeCountry} value={visit.country} onChange={(country) => set({ country })}>
          {unknown}
          {countryOptions().map((option) => (
            <option key={option.code} value={option.code}>
              {option.name}
            </option>
          ))}
        </Select>
        <Select id="probe-language" label={m.probeLanguage} value={visit.language} onChange={(language) => set({ language })}>
          {unknown}
          {languages.map((option) => (
            <option key={option.code} value={option.code}>
              {option.name}
            </option>
          ))}
        </Select>
        <div className="col-span-2 grid gap-1 sm:col-span-1">
          <Label htmlFor="probe-query" className="text-xs">
            {m.probeQuery}
          </Label>
          <Input id="probe-query" autoComplete="off" placeholder="ref=qr" value={visit.query} onChange={(event) => set({ query: event.target.value })} />
        </div>
      </div>
      <div className="grid gap-1">
        <span id="probe-result-label" className="sr-only">
          {m.probeResultLabel}
        </span>
        <output aria-labelledby="probe-result-label" aria-live="polite" className="rounded-md bg-slate-800 px-3 py-2 text-sm break-all text-teal-200">
          {result}
        </output>
      </div>
    </section>
  );
}
