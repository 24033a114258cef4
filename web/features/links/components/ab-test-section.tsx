import { ruleEditorMessages as m, variantLetter } from '@common/rules/rule-editor-messages';
import { VARIANTS_MAX, VARIANTS_MIN } from '@common/rules/rule-messages';
import { Plus, Trash2 } from 'lucide-react';
import { type ComponentProps, useEffect, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { FieldError, fieldErrorId } from '../../../components/ui/field-error';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { newDraftId, type VariantDraft } from './routing-draft';
import { routingAreaIds, variantFieldId } from './routing-errors';
import { evenWeights, setWeight, totalOf, weightsWithOneMore, weightsWithout } from './variant-weights';

type AbTestSectionProps = {
  /** null: no test. */
  variants: VariantDraft[] | null;
  onChange: (variants: VariantDraft[] | null) => void;
  errors: Readonly<Record<string, string[]>>;
  /** The link's destination as typed: a new test starts with it as variant A. */
  longUrl: string;
};

const withWeights = (variants: readonly VariantDraft[], weights: readonly number[]) => variants.map((variant, index) => ({ ...variant, weight: weights[index]! }));

/** «Prueba A/B»: 2 to 5 URLs with whole weights that always sum to 100. */
export function AbTestSection({ variants, onChange, errors, longUrl }: AbTestSectionProps) {
  const focusNext = useRef<string | null>(null);
  useEffect(() => {
    if (!focusNext.current) return;
    document.getElementById(focusNext.current)?.focus();
    focusNext.current = null;
  });

  const start = () => {
    const weights = evenWeights(VARIANTS_MIN);
    const created = [
      { id: newDraftId('v'), url: longUrl.trim(), weight: weights[0]! },
      { id: newDraftId('v'), url: '', weight: weights[1]! },
    ];
    focusNext.current = variantFieldId(created[1]!.id, 'url');
    onChange(created);
  };
  const stop = () => {
    focusNext.current = 'routing-start-test';
    onChange(null);
  };

  if (!variants) {
    return (
      <fieldset className="grid gap-3 rounded-lg border border-slate-700 p-4">
        <legend className="px-1 text-sm font-medium text-slate-200">{m.abTitle}</legend>
        <p className="text-sm text-slate-300">{m.abHelp}</p>
        <Button id="routing-start-test" variant="outline" size="sm" className="justify-self-start" onClick={start}>
          <Plus aria-hidden />
          {m.abStart}
        </Button>
      </fieldset>
    );
  }

  const weights = variants.map((variant) => variant.weight);
  const add = () => {
    const variant = { id: newDraftId('v'), url: '', weight: 0 };
    focusNext.current = variantFieldId(variant.id, 'url');
    onChange(withWeights([...variants, variant], weightsWithOneMore(weights)));
  };
  const remove = (index: number) => {
    const neighbour = variants[index + 1] ?? variants[index - 1];
    if (neighbour) focusNext.current = variantFieldId(neighbour.id, 'url');
    onChange(withWeights(variants.filter((_, position) => position !== index), weightsWithout(weights, index)));
  };
  const setUrl = (index: number, url: string) => onChange(variants.map((variant, position) => (position === index ? { ...variant, url } : variant)));
  const total = totalOf(weights);

  return (
    <fieldset className="grid gap-3 rounded-lg border border-slate-700 p-4" aria-describedby={`routing-test-help ${fieldErrorId(routingAreaIds.variants)}`}>
      <legend className="px-1 text-sm font-medium text-slate-200">{m.abTitle}</legend>
      <p id="routing-test-help" className="text-sm text-slate-300">
        {m.abHelp}
      </p>
      <ol className="grid gap-3">
        {variants.map((variant, index) => {
          const letter = variantLetter(index);
          const urlId = variantFieldId(variant.id, 'url');
          const weightId = variantFieldId(variant.id, 'weight');
          const urlMessages = errors[urlId] ?? [];
          const weightMessages = errors[weightId] ?? [];
          return (
            <li key={variant.id} className="grid gap-2 rounded-md border border-slate-800 bg-slate-950/40 p-3">
              <div className="flex items-center gap-2">
                <span className="flex-1 text-sm font-semibold whitespace-nowrap text-slate-100">{m.variantTitle(letter)}</span>
                {/* Named in full for screen readers; on screen, «Variante A … 50 %» says it. */}
                <WeightInput
                  id={weightId}
                  aria-label={m.variantWeight(letter)}
                  title={m.variantWeight(letter)}
                  className="w-18"
                  value={variant.weight}
                  onCommit={(weight) => onChange(withWeights(variants, setWeight(weights, index, weight)))}
                  aria-invalid={weightMessages.length > 0 || undefined}
                  aria-describedby={fieldErrorId(weightId)}
                />
                <span aria-hidden className="text-sm text-slate-300">
                  %
                </span>
                <Button
                  size="icon"
                  variant="ghost"
                  className="size-8 text-red-300 hover:text-red-200"
                  aria-label={m.abRemoveVariant(letter)}
                  title={m.abRemoveVariant(letter)}
                  disabled={variants.length <= VARIANTS_MIN}
                  onClick={() => remove(index)}
                >
                  <Trash2 aria-hidden />
                </Button>
              </div>
              <FieldError fieldId={weightId} messages={weightMessages} />
              <Label htmlFor={urlId} className="text-xs text-slate-300">
                URL
              </Label>
              <Input
                id={urlId}
                aria-label={m.variantUrl(letter)}
                type="url"
                inputMode="url"
                autoComplete="off"
                placeholder="https://ejemplo.com/version-b"
                value={variant.url}
                onChange={(event) => setUrl(index, event.target.value)}
                aria-invalid={urlMessages.length > 0 || undefined}
                aria-describedby={fieldErrorId(urlId)}
              />
              <FieldError fieldId={urlId} messages={urlMessages} />
            </li>
          );
        })}
      </ol>
      <p aria-live="polite" className={total === 100 ? 'text-sm font-medium text-teal-200' : 'text-sm font-medium text-red-300'}>
        {m.total(total)}
      </p>
      <FieldError fieldId={routingAreaIds.variants} messages={errors[routingAreaIds.variants]} />
      <div className="flex flex-wrap items-center gap-2">
        <Button variant="outline" size="sm" onClick={add} disabled={variants.length >= VARIANTS_MAX}>
          <Plus aria-hidden />
          {m.abAddVariant}
        </Button>
        <Button variant="destructive" size="sm" onClick={stop}>
          {m.abRemove}
        </Button>
        {variants.length >= VARIANTS_MAX && <span className="text-xs text-slate-400">{m.abFull}</span>}
      </div>
    </fieldset>
  );
}

/**
 * A weight typed freely (an empty box while retyping is fine): each whole number typed applies at
 * once, the others following; leaving the box shows the weight that applies.
 */
function WeightInput({ value, onCommit, ...props }: Omit<ComponentProps<'input'>, 'value' | 'onChange'> & { value: number; onCommit: (weight: number) => void }) {
  const [typed, setTyped] = useState<string | null>(null);
  return (
    <Input
      {...props}
      type="number"
      inputMode="numeric"
      min={1}
      max={99}
      step={1}
      value={typed ?? String(value)}
      onFocus={() => setTyped(String(value))}
      onBlur={() => setTyped(null)}
      onChange={(event) => {
        setTyped(event.target.value);
        const weight = Number(event.target.value);
        if (event.target.value.trim() !== '' && Number.isInteger(weight)) onCommit(weight);
      }}
    />
  );
}
