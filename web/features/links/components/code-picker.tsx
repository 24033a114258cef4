import { ruleEditorMessages as m } from '@common/rules/rule-editor-messages';
import { X } from 'lucide-react';
import { type KeyboardEvent, useId, useMemo, useState } from 'react';
import { fieldErrorId } from '../../../components/ui/field-error';
import { Input } from '../../../components/ui/input';
import { type CodeOption, matchingOptions } from './code-options';

type CodePickerProps = {
  /** The field's id (its messages are under `${id}-error`); the search box has it. */
  id: string;
  /** «País», «Idioma». */
  label: string;
  options: readonly CodeOption[];
  chosen: readonly string[];
  nameOf: (code: string) => string;
  onChange: (chosen: string[]) => void;
  /** A typed code the list lacks but may be taken as it is (a language's ISO code); null otherwise. */
  extraCode?: (typed: string) => string | null;
  invalid: boolean;
  /** What shows before anything is typed (a few languages; no countries). */
  suggestions?: readonly CodeOption[];
};

/**
 * A searchable choice of several codes by name: the chosen ones as chips (each with its ✕), a search
 * box, and the first matches as buttons. Enter in the box takes the first match.
 */
export function CodePicker({ id, label, options, chosen, nameOf, onChange, extraCode, invalid, suggestions = [] }: CodePickerProps) {
  const [typed, setTyped] = useState('');
  const listId = useId();
  const searching = typed.trim() !== '';
  const matches = useMemo(
    () => {
      const open = (option: CodeOption) => !chosen.includes(option.code);
      return searching ? matchingOptions(options.filter(open), typed) : suggestions.filter(open);
    },
    [options, typed, chosen, searching, suggestions],
  );
  const extra = extraCode?.(typed) ?? null;
  const candidates: CodeOption[] = extra && !chosen.includes(extra) ? [...matches, { code: extra, name: m.addCode(extra, nameOf(extra)) }] : matches;

  const add = (code: string) => {
    onChange([...chosen, code]);
    setTyped('');
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    // Enter picks the first match rather than sending the dialog's form.
    if (event.key !== 'Enter') return;
    event.preventDefault();
    if (searching && candidates[0]) add(candidates[0].code);
  };

  return (
    <div className="grid gap-2">
      {chosen.length > 0 ? (
        <ul className="flex flex-wrap gap-1.5" aria-label={`${label}: elegidos`}>
          {chosen.map((code) => (
            <li key={code}>
              <span className="inline-flex items-center gap-1 rounded-full border border-teal-400/40 bg-teal-400/10 py-0.5 pr-0.5 pl-2.5 text-xs text-teal-100">
                {nameOf(code)}
                <button
                  type="button"
                  aria-label={m.removeValue(nameOf(code))}
                  onClick={() => onChange(chosen.filter((current) => current !== code))}
                  className="inline-flex size-6 items-center justify-center rounded-full hover:bg-teal-400/20 focus-visible:outline-2 focus-visible:outline-teal-300"
                >
                  <X aria-hidden className="size-3.5" />
                </button>
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-xs text-slate-400">{m.chosenNone}</p>
      )}
      <label htmlFor={id} className="sr-only">
        {m.search(label)}
      </label>
      <Input
        id={id}
        type="search"
        autoComplete="off"
        placeholder={m.searchPlaceholder}
        value={typed}
        onChange={(event) => setTyped(event.target.value)}
        onKeyDown={onKeyDown}
        aria-controls={listId}
        aria-invalid={invalid || undefined}
        aria-describedby={fieldErrorId(id)}
      />
      <ul id={listId} aria-label={`${label}: resultados`} className="flex flex-wrap gap-1.5">
        {candidates.length === 0 ? (
          searching && <li className="text-xs text-slate-400">{m.noMatches}</li>
        ) : (
          candidates.map((option) => (
            <li key={option.code}>
              <button
                type="button"
                onClick={() => add(option.code)}
                className="rounded-full border border-slate-700 px-2.5 py-1 text-xs text-slate-200 hover:border-slate-500 hover:bg-slate-800 focus-visible:outline-2 focus-visible:outline-teal-300"
              >
                {option.name}
                {option.code !== extra && <span className="ml-1 text-slate-400">{option.code}</span>}
              </button>
            </li>
          ))
        )}
      </ul>
    </div>
  );
}
