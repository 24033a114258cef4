// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { FieldError, fieldErrorId } from './field-error';

afterEach(cleanup);

describe('FieldError', () => {
  it('lists every message of the field under the id the input points to', () => {
    render(
      <>
        <input aria-label="Email" aria-describedby={fieldErrorId('email')} />
        <FieldError fieldId="email" messages={['El email no es válido', 'El email es obligatorio']} />
      </>,
    );
    const items = screen.getAllByRole('listitem').map((item) => item.textContent);
    expect(items).toEqual(['El email no es válido', 'El email es obligatorio']);
    expect(screen.getByRole('textbox', { name: 'Email' }).getAttribute('aria-describedby')).toBe('email-error');
    expect(document.getElementById('email-error')?.getAttribute('aria-live')).toBe('polite');
  });

  it('accepts a single message', () => {
    render(<FieldError fieldId="title" messages="El título es obligatorio" />);
    expect(screen.getByRole('listitem').textContent).toBe('El título es obligatorio');
  });

  it('renders no list without messages but keeps its live region mounted', () => {
    render(<FieldError fieldId="password" messages={[]} />);
    expect(screen.queryByRole('list')).toBeNull();
    expect(document.getElementById('password-error')).not.toBeNull();
  });
});
