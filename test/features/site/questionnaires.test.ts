import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailIdentity } from '../../../src/features/site/mail-identity.ts';
import { agencyNotification } from '../../../src/features/intake/notification-email.ts';
import { QUESTIONNAIRES } from '../../../src/kernel/schemas/questionnaires.ts';
import { SECTORS } from '../../../src/kernel/schemas/sectors.ts';
import { postJson } from '../../helpers/api-assertions.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';
import { buildTestSite, type TestSite } from '../../helpers/site.ts';
import { formsOf } from './html-scan.ts';

/* docs/api-decisions.md, "Questionnaires": one list of questions per sector, everywhere. */
const SITE_URL = 'https://www.agence-web.fr';
let site: TestSite;
let t: TestApp;
beforeAll(async () => {
  site = await buildTestSite(SITE_URL);
  t = await buildTestApp();
});
afterAll(async () => {
  site.remove();
  await t.close();
});

const read = (file: string) => readFileSync(join(site.dir, file), 'utf8');

interface QuestionnaireJson {
  sector: string;
  questions: { question: string; answer: string; choices?: string[] }[];
  submit: { example: Record<string, unknown> };
}

describe.each(SECTORS)(
  'sector %s: the JSON questionnaire, the page and its Markdown agree',
  (sector) => {
    let json: QuestionnaireJson;
    beforeAll(() => {
      json = JSON.parse(read(`secteurs/${sector}.json`)) as QuestionnaireJson;
    });

    it('the JSON lists the questions with their kind of answer and choices', () => {
      expect(json.sector).toBe(sector);
      expect(json.questions.length).toBeGreaterThan(5);
      for (const question of json.questions) {
        expect(question.answer).toBe(question.choices ? 'choice' : 'text');
        expect(question.question).not.toMatch(/[[\]]/);
      }
    });

    it('the HTML form asks the same questions, with the same choices, in the same order', () => {
      const [form] = formsOf(read(`secteurs/${sector}/index.html`)).filter(
        (f) => f.action === '/api/audit',
      );
      const asked: { question: string; choices: string[] }[] = [];
      for (const control of form!.controls) {
        const question = /^formData\[(.+)\]$/.exec(control.name ?? '')?.[1];
        if (question === undefined) continue;
        let entry = asked.find((a) => a.question === question);
        if (!entry) asked.push((entry = { question, choices: [] }));
        if (control.type === 'radio') entry.choices.push(control.value!);
      }
      expect(asked).toEqual(
        json.questions.map((q) => ({ question: q.question, choices: q.choices ?? [] })),
      );
    });

    it('the Markdown lists the same questions and links the JSON', () => {
      const markdown = read(`secteurs/${sector}.md`);
      const section = markdown.slice(markdown.indexOf('## Envoyer ce formulaire par l’API'));
      const listed = [...section.matchAll(/^- (.+)$/gm)].map((match) =>
        match[1]!.replace(/ \(réponses proposées : .*\)$/, ''),
      );
      expect(listed).toEqual(json.questions.map((q) => q.question));
      expect(markdown).toContain(`(${SITE_URL}/secteurs/${sector}.json)`);
    });

    it('llms.txt links the JSON questionnaire', () => {
      expect(read('llms.txt')).toContain(`](${SITE_URL}/secteurs/${sector}.json)`);
    });

    it('the example body in the JSON is accepted as is', async () => {
      const response = await postJson(t.app, '/api/audit', json.submit.example);
      expect(response.statusCode, response.body).toBe(200);
    });
  },
);

describe('an answer is filed under the canonical question whatever its typography', () => {
  const canonical = QUESTIONNAIRES.btp[1]!.question; // "Quelle est votre zone d’intervention ?"
  const typed = canonical.replace('’', "'").replace('\u00a0', ' ');

  async function journaled(email: string) {
    const entries = (await t.store.list()).filter(
      ({ lead }) => lead.kind === 'audit' && lead.data.email === email,
    );
    expect(entries).toHaveLength(1);
    return entries[0]!.lead;
  }

  it(`"${typed}" lands under "${canonical}"`, async () => {
    expect(typed).not.toBe(canonical);
    const body = {
      email: 'typo@example.fr',
      firstName: 'Paul',
      sector: 'btp',
      formData: { [typed]: 'Nantes' },
    };
    expect((await postJson(t.app, '/api/audit', body)).statusCode).toBe(200);
    const lead = await journaled('typo@example.fr');
    expect(lead.kind === 'audit' && lead.data.formData).toEqual({ [canonical]: 'Nantes' });
  });

  it('without sector, no space before « ? » and another case, still recognised', async () => {
    const loose = canonical.replace('’', "'").replace('\u00a0?', '?').toUpperCase();
    const body = { email: 'loose@example.fr', firstName: 'Paul', formData: { [loose]: 'Rennes' } };
    expect((await postJson(t.app, '/api/audit', body)).statusCode).toBe(200);
    const lead = await journaled('loose@example.fr');
    expect(lead.kind === 'audit' && lead.data.formData).toEqual({ [canonical]: 'Rennes' });
  });

  it('an unknown question is kept as sent and marked in the agency notification', async () => {
    const invented = 'Avez-vous un camion ?';
    const body = {
      email: 'invented@example.fr',
      firstName: 'Paul',
      sector: 'btp',
      formData: { [invented]: 'Oui', [typed]: 'Nantes' },
    };
    expect((await postJson(t.app, '/api/audit', body)).statusCode).toBe(200);
    const lead = await journaled('invented@example.fr');
    expect(lead.kind === 'audit' && lead.data.formData).toEqual({
      [invented]: 'Oui',
      [canonical]: 'Nantes',
    });
    const mail = agencyNotification(lead, {
      from: 'a@agence.fr',
      agencyEmail: 'a@agence.fr',
      siteUrl: SITE_URL,
      identity: mailIdentity(),
    });
    expect(mail.text).toContain(`${invented} : Oui (question hors questionnaire)`);
    expect(mail.text).toContain(`${canonical} : Nantes\n`);
  });
});
