// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { AbTestSection } from './ab-test-section';
import { ProbeBox } from './probe-box';
import type { RuleDraft, VariantDraft } from './routing-draft';
import { RulesSection } from './rules-section';

afterEach(cleanup);

function Rules({ initial, errors = {} }: { initial: RuleDraft[]; errors?: Record<string, string[]> }) {
  const [rules, setRules] = useState(initial);
  return <RulesSection rules={rules} onChange={setRules} errors={errors} probe={<ProbeBox longUrl="https://web.es/" rules={rules} variants={null} />} />;
}

function Test({ initial }: { initial: VariantDraft[] | null }) {
  const [variants, setVariants] = useState(initial);
  return <AbTestSection variants={variants} onChange={setVariants} errors={{}} longUrl="https://web.es/" />;
}

const twoRules: RuleDraft[] = [
  { id: 'a', url: 'https://apps.apple.com/', conditions: [{ kind: 'os', values: ['ios'] }] },
  { id: 'b', url: 'https://play.google.com/', conditions: [{ kind: 'os', values: ['android'] }] },
];

describe('the «Reglas» section', () => {
  it('adds a rule and its conditions from the menu, focusing what was added', () => {
    render(<Rules initial={[]} />);
    fireEvent.click(screen.getByRole('button', { name: 'Añadir regla' }));
    expect(screen.getByRole('heading', { name: 'Regla 1' })).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText('Enviar a esta URL'));
    fireEvent.click(screen.getByRole('button', { name: 'Añadir condición' }));
    fireEvent.click(screen.getByRole('button', { name: 'Dispositivo' }));
    const móvil = screen.getByRole('checkbox', { name: 'Móvil' });
    expect(document.activeElement).toBe(móvil);
    fireEvent.click(móvil);
    fireEvent.change(screen.getByLabelText('Enviar a esta URL'), { target: { value: 'https://m.web.es/' } });
    expect(document.querySelector('output')?.textContent).toBe('Iría a: https://m.web.es/ (regla 1)');
    // Each kind once: «Dispositivo» is no longer offered.
    fireEvent.click(screen.getByRole('button', { name: 'Añadir condición' }));
    expect(screen.queryByRole('button', { name: 'Dispositivo' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Quitar la condición «Dispositivo»' }));
    expect(screen.queryByRole('checkbox', { name: 'Móvil' })).toBeNull();
  });

  it('finds a country by its Spanish name and takes it with Enter', () => {
    render(<Rules initial={[{ id: 'c', url: 'https://mx.web.es/', conditions: [{ kind: 'country', values: [] }] }]} />);
    const search = screen.getByLabelText('Buscar país');
    fireEvent.change(search, { target: { value: 'mexico' } });
    fireEvent.keyDown(search, { key: 'Enter' });
    expect(screen.getByRole('button', { name: 'Quitar México' })).toBeTruthy();
    fireEvent.change(screen.getByRole('combobox', { name: 'País' }), { target: { value: 'MX' } });
    expect(document.querySelector('output')?.textContent).toBe('Iría a: https://mx.web.es/ (regla 1)');
  });

  it('moves a rule with «Subir» and «Bajar», says so, and keeps focus on the rule', () => {
    render(<Rules initial={twoRules} />);
    fireEvent.click(screen.getByRole('button', { name: 'Bajar la regla 1' }));
    const headings = screen.getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent);
    expect(headings.slice(0, 2)).toEqual(['Regla 1', 'Regla 2']);
    const urls = screen.getAllByLabelText('Enviar a esta URL').map((input) => (input as HTMLInputElement).value);
    expect(urls).toEqual(['https://play.google.com/', 'https://apps.apple.com/']);
    expect(screen.getByText(/movida/).textContent).toBe('Regla 1 movida a la posición 2 de 2.');
    // At the bottom «Bajar» is off: focus is on «Subir» of the same rule.
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Subir la regla 2' }));
  });

  it('shows a message under the field it names', () => {
    render(<Rules initial={twoRules} errors={{ 'rule-b-url': ['Esa URL es una dirección corta de esta instancia: la visita daría vueltas'] }} />);
    const [, second] = screen.getAllByLabelText('Enviar a esta URL');
    expect(second!.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(second!.getAttribute('aria-describedby')!)?.textContent).toMatch(/daría vueltas/);
  });
});

describe('the «Prueba A/B» section', () => {
  const total = () => screen.getByText(/^Total:/).textContent;
  const weights = () => screen.getAllByRole('spinbutton').map((input) => Number((input as HTMLInputElement).value));

  it('starts with two variants at 50 %, and keeps the total at 100', () => {
    render(<Test initial={null} />);
    fireEvent.click(screen.getByRole('button', { name: 'Crear una prueba A/B' }));
    expect((screen.getByLabelText('URL de la variante A') as HTMLInputElement).value).toBe('https://web.es/');
    expect(weights()).toEqual([50, 50]);
    const weightA = screen.getByLabelText('Peso de la variante A (%)');
    fireEvent.focus(weightA);
    fireEvent.change(weightA, { target: { value: '70' } });
    fireEvent.blur(weightA);
    expect(weights()).toEqual([70, 30]);
    fireEvent.click(screen.getByRole('button', { name: 'Añadir variante' }));
    expect(weights()).toEqual([34, 33, 33]);
    expect(total()).toBe('Total: 100 %');
    fireEvent.click(screen.getByRole('button', { name: 'Quitar la variante A' }));
    expect(weights()).toEqual([50, 50]);
    fireEvent.click(screen.getByRole('button', { name: 'Quitar la prueba' }));
    expect(screen.getByRole('button', { name: 'Crear una prueba A/B' })).toBeTruthy();
    expect(within(document.body).queryByText(/^Total:/)).toBeNull();
  });
});
