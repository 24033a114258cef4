// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Button } from './button';

afterEach(cleanup);

describe('Button', () => {
  it('is a plain button by default, so it never submits a form by accident', () => {
    render(<Button>Crear</Button>);
    const button = screen.getByRole('button', { name: 'Crear' });
    expect(button.getAttribute('type')).toBe('button');
    expect((button as HTMLButtonElement).disabled).toBe(false);
    expect(button.getAttribute('aria-busy')).toBeNull();
  });

  it('while loading shows a spinner, is disabled and busy, and keeps its name', () => {
    render(
      <Button type="submit" loading>
        Crear
      </Button>,
    );
    const button = screen.getByRole('button', { name: 'Crear' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(button.getAttribute('aria-busy')).toBe('true');
    expect(button.getAttribute('type')).toBe('submit');
    expect(button.querySelector('.animate-spin')).not.toBeNull();
  });

  it('with asChild gives its look to the child element instead of a button', () => {
    render(
      <Button asChild variant="outline">
        <a href="/auth">Iniciar sesión</a>
      </Button>,
    );
    const link = screen.getByRole('link', { name: 'Iniciar sesión' });
    expect(link.getAttribute('href')).toBe('/auth');
    expect(link.className).toContain('border-slate-700');
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('lets a className override its size', () => {
    render(<Button className="h-12">Acortar!</Button>);
    const classes = screen.getByRole('button').className.split(' ');
    expect(classes).toContain('h-12');
    expect(classes).not.toContain('h-10');
  });
});
