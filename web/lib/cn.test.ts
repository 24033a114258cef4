import { describe, expect, it } from 'vitest';
import { cn } from './cn';

describe('cn', () => {
  it('lets a later class of the same group win', () => {
    expect(cn('h-10 px-4 text-sm', 'h-12 text-base')).toBe('px-4 h-12 text-base');
    expect(cn('bg-teal-400 text-slate-950', 'bg-red-600 text-white')).toBe('bg-red-600 text-white');
    expect(cn('rounded-lg', 'rounded-full')).toBe('rounded-full');
    expect(cn('max-w-lg', 'max-w-[calc(100%-2rem)]')).toBe('max-w-[calc(100%-2rem)]');
  });

  it('keeps font size, colour, alignment and wrapping of text apart', () => {
    expect(cn('text-sm text-slate-100 text-left', 'text-lg text-center text-balance')).toBe(
      'text-slate-100 text-lg text-center text-balance',
    );
  });

  it('keeps border width, sides and colour apart', () => {
    expect(cn('border border-slate-700', 'border-t-2 border-red-400')).toBe('border border-t-2 border-red-400');
    expect(cn('border-t border-b', 'border')).toBe('border');
  });

  it('treats modifiers as their own groups', () => {
    expect(cn('hover:bg-slate-800 bg-slate-900', 'hover:bg-teal-300')).toBe('bg-slate-900 hover:bg-teal-300');
    expect(cn('h-10 sm:h-12', 'h-8')).toBe('sm:h-12 h-8');
    expect(cn('data-[state=active]:text-teal-300', 'data-[state=active]:text-white')).toBe(
      'data-[state=active]:text-white',
    );
  });

  it('resolves shorthands against their parts', () => {
    expect(cn('px-4 py-2', 'p-0')).toBe('p-0');
    expect(cn('p-4', 'px-2')).toBe('p-4 px-2');
    expect(cn('w-4 h-4', 'size-8')).toBe('size-8');
    expect(cn('inline-flex', 'hidden')).toBe('hidden');
  });

  it('leaves unknown classes alone and accepts conditional inputs', () => {
    const hidden = false;
    expect(cn('group select-none', hidden && 'hidden', undefined, { 'font-bold': true })).toBe(
      'group select-none font-bold',
    );
  });
});
