import { describe, expect, it } from 'vitest';
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
