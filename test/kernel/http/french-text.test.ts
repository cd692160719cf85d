import { describe, expect, it } from 'vitest';
import { frenchList, frenchNumber } from '../../../src/kernel/schemas/french-text.ts';
import { apiErrors } from '../../../src/kernel/schemas/error-catalog.ts';

describe('French text written by hand', () => {
  it('groups thousands with a narrow no-break space, as fr-FR does', () => {
    expect(frenchNumber(7)).toBe('7');
    expect(frenchNumber(999)).toBe('999');
    expect(frenchNumber(5000)).toBe('5\u202f000');
    expect(frenchNumber(1234567)).toBe('1\u202f234\u202f567');
    for (const value of [0, 42, 1000, 99_999, 100_000, 2_500_000]) {
      expect(frenchNumber(value)).toBe(value.toLocaleString('fr-FR'));
    }
  });

  it('joins a list the French way', () => {
    expect(frenchList([])).toBe('');
    expect(frenchList(['a'])).toBe('a');
    expect(frenchList(['a', 'b'])).toBe('a et b');
    expect(frenchList(['a', 'b', 'c'])).toBe('a, b et c');
  });

  it('names every endpoint in the answer to an unknown path', () => {
    const { hint } = apiErrors.notFound('GET', '/api/nulle-part');
    expect(hint).toContain(
      'POST /api/contact, POST /api/subscribe, POST /api/audit et POST /api/privacy',
    );
  });
});
