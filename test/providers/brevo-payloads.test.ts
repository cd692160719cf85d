import { describe, expect, it } from 'vitest';
import { internationalNumber } from '../../src/providers/brevo/brevo-contact.ts';
import { idempotencyKey, parseSender } from '../../src/providers/brevo/brevo-email.ts';

describe('Brevo payload details', () => {
  it('writes SMS in the international form Brevo requires, or not at all', () => {
    expect(internationalNumber('06 12 34 56 78', '+33')).toBe('+33612345678');
    expect(internationalNumber('612345678', '33')).toBe('+33612345678');
    expect(internationalNumber('612345678', '0033')).toBe('+33612345678');
    expect(internationalNumber('+32 470 12 34 56', undefined)).toBe('+32470123456');
    expect(internationalNumber('0041 79 123 45 67', '+33')).toBe('+41791234567');
    expect(internationalNumber('06 12 34 56 78', undefined)).toBeUndefined();
    expect(internationalNumber('appelez-moi', '+33')).toBeUndefined();
    expect(internationalNumber('0612345678', 'France')).toBeUndefined();
    expect(internationalNumber(undefined, '+33')).toBeUndefined();
  });

  it('derives one stable UUID per lead and e-mail role (docs/brevo.md)', () => {
    const key = idempotencyKey('lead-1', 'confirmation');
    expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(idempotencyKey('lead-1', 'confirmation')).toBe(key);
    expect(idempotencyKey('lead-1', 'notification')).not.toBe(key);
    expect(idempotencyKey('lead-2', 'confirmation')).not.toBe(key);
  });

  it('reads MAIL_FROM as Brevo’s sender object', () => {
    expect(parseSender('Agence <bonjour@agence.example>')).toEqual({
      name: 'Agence',
      email: 'bonjour@agence.example',
    });
    expect(parseSender('"L’Agence, Paris" <a@b.fr>')).toEqual({
      name: 'L’Agence, Paris',
      email: 'a@b.fr',
    });
    expect(parseSender('bonjour@agence.example')).toEqual({ email: 'bonjour@agence.example' });
  });
});
