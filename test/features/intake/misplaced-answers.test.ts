import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectApiError, postForm, postJson } from '../../helpers/api-assertions.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';

/*
 * docs/api-decisions.md, "Errors an agent can act on": a questionnaire answer sent outside formData
 * gets a hint that moves it into formData, with the corrected body; applied as is, the answer reaches
 * the journal. No hint tells to drop a value that carries a person's answer.
 */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const QUESTION = 'Que vendez-vous\u00a0?';

async function answersOf(email: string) {
  const entry = (await t.store.list()).find(({ lead }) =>
    JSON.stringify(lead.data).includes(`"${email}"`),
  );
  return (entry?.lead.data as { formData?: Record<string, string> } | undefined)?.formData;
}

/** The corrected body a JSON hint ends with. */
function correctedBody(hint: string): Record<string, unknown> {
  const json = /corrigé : (\{.*\})/.exec(hint)?.[1];
  expect(json, hint).toBeDefined();
  return JSON.parse(json!) as Record<string, unknown>;
}

describe('a questionnaire answer at the top level of a JSON audit', () => {
  it('a question typed with a straight apostrophe and plain space: moved into formData, answer kept', async () => {
    const body = {
      email: 'top-level@example.fr',
      firstName: 'Inès',
      sector: 'boutiques',
      'Que vendez-vous ?': 'Des vélos',
      'Dans quelle ville et quel quartier se trouve votre boutique ?': 'Lyon 4e',
    };
    const error = expectApiError(await postJson(t.app, '/api/audit', body), 400, 'invalid_field');
    expect(error.field).toBe('Que vendez-vous ?');
    expect(error.message).toContain('formData');
    expect(error.hint).not.toMatch(/retirez ce champ/i);
    const fixed = correctedBody(error.hint);
    expect(await postJson(t.app, '/api/audit', fixed).then((r) => r.statusCode)).toBe(200);
    expect(await answersOf('top-level@example.fr')).toEqual({
      [QUESTION]: 'Des vélos',
      'Dans quelle ville et quel quartier se trouve votre boutique\u00a0?': 'Lyon 4e',
    });
  });

  it('an "answers" object beside formData: its answers join formData', async () => {
    const body = {
      email: 'answers-object@example.fr',
      firstName: 'Inès',
      sector: 'boutiques',
      formData: { 'Quel est votre objectif principal\u00a0?': 'Plus de ventes en ligne' },
      answers: { [QUESTION]: 'Du thé' },
    };
    const error = expectApiError(await postJson(t.app, '/api/audit', body), 400, 'invalid_field');
    expect(error.field).toBe('answers');
    const fixed = correctedBody(error.hint);
    expect(fixed).not.toHaveProperty('answers');
    expect((await postJson(t.app, '/api/audit', fixed)).statusCode).toBe(200);
    expect(await answersOf('answers-object@example.fr')).toEqual({
      'Quel est votre objectif principal\u00a0?': 'Plus de ventes en ligne',
      [QUESTION]: 'Du thé',
    });
  });

  it('an unknown field that is no question is never simply "to remove": the hint says where an answer goes', async () => {
    const body = { email: 'x@example.fr', firstName: 'Inès', sector: 'btp', budget: '3000' };
    const error = expectApiError(await postJson(t.app, '/api/audit', body), 400, 'invalid_field');
    expect(error.field).toBe('budget');
    expect(error.hint).not.toMatch(/retirez ce champ/i);
    expect(error.hint).toContain('formData');
  });
});

describe('a questionnaire answer as a flat form field', () => {
  it('the hint shows the formData[Question] spelling; sent that way, the answer is kept', async () => {
    const fields: [string, string][] = [
      ['email', 'form-top@example.fr'],
      ['firstName', 'Inès'],
      ['sector', 'boutiques'],
      ['Que vendez-vous ?', 'Des jouets'],
    ];
    const accept = { accept: 'application/json' };
    const error = expectApiError(
      await postForm(t.app, '/api/audit', fields, accept),
      400,
      'invalid_field',
    );
    expect(error.field).toBe('Que vendez-vous ?');
    expect(error.hint).toContain(`formData[${QUESTION}]=Des jouets`);
    const fixed = fields.map(([name, value]): [string, string] =>
      name === 'Que vendez-vous ?' ? [`formData[${QUESTION}]`, value] : [name, value],
    );
    expect((await postForm(t.app, '/api/audit', fixed, accept)).statusCode).toBe(200);
    expect(await answersOf('form-top@example.fr')).toEqual({ [QUESTION]: 'Des jouets' });
  });
});
