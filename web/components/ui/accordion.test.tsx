// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Accordion, AccordionContent, AccordionItem, AccordionTrigger } from './accordion';
import { BarLoader } from './bar-loader';

afterEach(cleanup);

describe('Accordion', () => {
  it('keeps several items open at once', () => {
    render(
      <Accordion>
        {['uno', 'dos', 'tres'].map((name) => (
          <AccordionItem key={name} value={name}>
            <AccordionTrigger>Pregunta {name}</AccordionTrigger>
            <AccordionContent>Respuesta {name}</AccordionContent>
          </AccordionItem>
        ))}
      </Accordion>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Pregunta uno' }));
    fireEvent.click(screen.getByRole('button', { name: 'Pregunta tres' }));
    const expanded = screen.getAllByRole('button').map((button) => button.getAttribute('aria-expanded'));
    expect(expanded).toEqual(['true', 'false', 'true']);
    expect(screen.getByText('Respuesta uno')).toBeTruthy();
    expect(screen.getByText('Respuesta tres')).toBeTruthy();
    expect(screen.queryByText('Respuesta dos')).toBeNull();
  });
});

describe('BarLoader', () => {
  it('is a labelled progress bar', () => {
    render(<BarLoader label="Cargando sesión" />);
    expect(screen.getByRole('progressbar', { name: 'Cargando sesión' })).toBeTruthy();
  });
});
