// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TOAST_MS, Toaster, toast } from './toaster';

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  act(() => vi.runAllTimers());
  cleanup();
  vi.useRealTimers();
});

describe('Toaster', () => {
  it('keeps its labelled region in the page, and a failure arrives in it as an alert', () => {
    render(<Toaster />);
    const region = screen.getByRole('region', { name: 'Avisos' });
    expect(region.children).toHaveLength(0);
    act(() => toast('No se ha eliminado «Mi blog».'));
    expect(screen.getByRole('alert').textContent).toBe('No se ha eliminado «Mi blog».');
    act(() => toast('Hecho.', 'info'));
    expect(screen.getByRole('status').textContent).toBe('Hecho.');
  });

  it('shows a success as a calm green status, never in the red of a failure', () => {
    render(<Toaster />);
    act(() => toast('Cambios guardados.', 'success'));
    const notice = screen.getByRole('status');
    expect(notice.textContent).toBe('Cambios guardados.');
    expect(notice.dataset.tone).toBe('success');
    expect(notice.className).toMatch(/emerald/);
    expect(notice.className).not.toMatch(/red/);
  });

  it('shows the same message once, closes with its button, and goes by itself after a while', () => {
    render(<Toaster />);
    act(() => {
      toast('No se ha cerrado la sesión.');
      toast('No se ha cerrado la sesión.');
    });
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Cerrar aviso' }));
    expect(screen.queryByRole('alert')).toBeNull();
    act(() => toast('Otra vez.'));
    act(() => vi.advanceTimersByTime(TOAST_MS - 1));
    expect(screen.getByRole('alert')).toBeTruthy();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
