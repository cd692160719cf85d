import emailMisspelled, { all } from 'email-misspelled';
import { describe, expect, it } from 'vitest';
import { likelyAddress } from '../../../src/features/intake/email-typo-suggestion.ts';
import { postJson } from '../../helpers/api-assertions.ts';
import { useTestApp, validContact, validSubscribe } from '../../helpers/app.ts';

/** docs/api-decisions.md, « Domaine mal tapé »: a warning, never a refusal. */
describe('a likely typo of a big provider’s domain', () => {
  const t = useTestApp();

  it('accepts the lead and warns with the likely address', async () => {
    const answer = await postJson(t.app, '/api/contact', {
      ...validContact,
      EMAIL: 'marie@gmial.com',
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.json().warnings).toEqual([
      {
        code: 'email_typo',
        field: 'EMAIL',
        message:
          'Vouliez-vous dire marie@gmail.com\u00a0? L’adresse a été enregistrée telle quelle.',
      },
    ]);
    const subscribe = await postJson(t.app, '/api/subscribe', {
      ...validSubscribe,
      email: 'lea@orange.fe',
    });
    expect(subscribe.json().warnings?.[0]).toMatchObject({ code: 'email_typo', field: 'email' });
  });

  it('says nothing of a right or unknown domain', async () => {
    for (const email of ['marie@gmail.com', 'marie@agence-dupont.fr']) {
      const answer = await postJson(t.app, '/api/contact', { ...validContact, EMAIL: email });
      expect(answer.statusCode).toBe(200);
      expect(answer.json().warnings).toBeUndefined();
    }
  });
});

describe('the suggestion, asked again for a domain it has seen', () => {
  // email-misspelled as documented (its default bounds), without the domains remembered.
  const reference = emailMisspelled({ domains: all });
  const ADDRESSES = [
    'marie@gmial.com',
    'paul@agence-dupont.fr',
    'lea@orange.fe',
    'ines@hotmial.fr',
    'hugo@wanadoo.fe',
    'zoe@gmail.com',
    'jules@exemple.fr',
    'Chloe@GMIAL.COM',
    'emma@gmai.com',
    'louis@yahooo.fr',
    'sans-arobase.fr',
    'deux@arobases@gmial.com',
  ];

  it('is the library’s own answer, the first time and every time after', () => {
    for (let round = 0; round < 3; round++) {
      for (const address of ADDRESSES) {
        expect(likelyAddress(` ${address} `), address).toBe(reference(address)[0]?.corrected);
      }
    }
    expect(likelyAddress('marie@gmial.com')).toBe('marie@gmail.com');
    expect(likelyAddress('pierre@gmial.com')).toBe('pierre@gmail.com');
  });
});
