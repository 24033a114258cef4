import { describe, expect, it } from 'vitest';
import { messagesOf } from './field-messages';

describe('messagesOf', () => {
  it('lists every message react-hook-form kept with criteriaMode all, in order, without repeats', () => {
    const messages = messagesOf({
      type: 'too_small',
      message: 'La contraseña es obligatoria',
      types: { too_small: ['La contraseña es obligatoria', 'La contraseña debe tener al menos 6 caracteres'], custom: 'Otro' },
    });
    expect(messages).toEqual(['La contraseña es obligatoria', 'La contraseña debe tener al menos 6 caracteres', 'Otro']);
  });

  it('falls back to the single message, and to nothing without an error', () => {
    expect(messagesOf({ type: 'server', message: 'Ya existe una cuenta con este email' })).toEqual([
      'Ya existe una cuenta con este email',
    ]);
    expect(messagesOf(undefined)).toEqual([]);
  });
});
