import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import PostalMime, { type Email } from 'postal-mime';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { QUESTIONNAIRES } from '../../src/kernel/schemas/questionnaires.ts';
import { postJson } from '../helpers/api-assertions.ts';
import {
  buildTestApp,
  validAudit,
  validContact,
  validSubscribe,
  type TestApp,
} from '../helpers/app.ts';

const AGENCY = 'equipe@agence-test.fr';
let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp({
    env: { AGENCY_EMAIL: AGENCY, MAIL_FROM: 'Agence Test <bonjour@agence-test.fr>' },
  });
});
afterEach(() => t.close());

/** README, Configuration: what the outbox wrote, read back by a real MIME parser, by role (file name suffix). */
async function outbox(): Promise<Record<string, Email & { raw: string }>> {
  const directory = join(t.dataDir, 'outbox');
  const files = readdirSync(directory).filter((name) => name.endsWith('.eml'));
  const entries = await Promise.all(
    files.map(async (name) => {
      const raw = readFileSync(join(directory, name));
      const role = name
        .replace(/\.eml$/, '')
        .split('-')
        .at(-1)!;
      return [role, { ...(await PostalMime.parse(raw)), raw: raw.toString('utf8') }] as const;
    }),
  );
  expect(new Set(entries.map(([role]) => role)).size).toBe(entries.length);
  return Object.fromEntries(entries);
}

describe('the outbox writes real RFC 5322 messages under DATA_DIR/outbox (README, Configuration)', () => {
  const contact = {
    ...validContact,
    PRENOM: 'Zoé',
    NOM: 'Lefèvre-Unique',
    JOB_TITLE: 'Fleuriste <b>bio</b>',
    DEMANDE: 'Achetez des montres pas chères sur spam.example',
    SMS: '612345678',
    SMS__COUNTRY_CODE: '+33',
  };

  it('contact: a confirmation to EMAIL and a notification to AGENCY_EMAIL', async () => {
    expect((await postJson(t.app, '/api/contact', contact)).statusCode).toBe(200);
    const mails = await outbox();
    expect(Object.keys(mails).sort()).toEqual(['confirmation', 'notification']);

    const confirmation = mails.confirmation!;
    expect(confirmation.to?.map((to) => to.address)).toEqual([contact.EMAIL]);
    expect(confirmation.from?.address).toBe('bonjour@agence-test.fr');
    expect(confirmation.subject).toBe('Nous avons bien reçu votre demande');
    expect(confirmation.text).toContain('Bonjour Zoé,');
    expect(confirmation.text).toMatch(/24\sheures ouvrées/u);
    expect(confirmation.html).toContain('<html lang="fr">');
    expect(confirmation.messageId).toMatch(/^<.+@.+>$/);

    const notification = mails.notification!;
    expect(notification.to?.map((to) => to.address)).toEqual([AGENCY]);
    // docs/emails.md: a subject a person can triage: kind, name, trade.
    expect(notification.subject).toBe(
      'Nouvelle demande de contact : Zoé Lefèvre-Unique, Fleuriste <b>bio</b>',
    );
    // Replying to the agency's notification writes to the person who asked.
    expect(notification.replyTo?.map((to) => [to.name, to.address])).toEqual([
      ['Zoé Lefèvre-Unique', contact.EMAIL],
    ]);
    // Every field under its French label (the schema's title), the phone with its country code.
    for (const [label, value] of [
      ['Prénom', contact.PRENOM],
      ['Nom', contact.NOM],
      ['Adresse e-mail', contact.EMAIL],
      ['Métier ou activité', contact.JOB_TITLE],
      ['Piliers concernés', contact.TYPE_BESOIN],
      ['Service souhaité', contact.SERVICE],
      ['Projet', contact.DEMANDE],
      ['Téléphone', '+33 612345678'],
    ]) {
      expect(notification.text).toContain(`${label} : ${value}`);
    }
    expect(notification.html).toContain('Fleuriste &lt;b&gt;bio&lt;/b&gt;');
    expect(notification.html).not.toContain('<b>bio</b>');
  });

  it('the confirmation to an unverified address repeats only harmless text (docs/api-decisions.md)', async () => {
    await postJson(t.app, '/api/contact', contact);
    const { confirmation } = await outbox();
    const parts = [
      confirmation!.subject,
      confirmation!.text,
      confirmation!.html,
      confirmation!.raw,
    ];
    // Short texts of letters only are the summary a person expects…
    expect(confirmation!.text).toContain('Bonjour Zoé,');
    expect(confirmation!.text).toContain(`Nom : ${contact.NOM}`);
    expect(confirmation!.text).toContain(`Service souhaité : ${contact.SERVICE}`);
    // …markup, a domain name, a phone number are acknowledged, never repeated.
    expect(confirmation!.text).toContain('Métier ou activité : votre texte de 20 caractères');
    expect(confirmation!.text).toContain(
      `Projet : votre texte de ${contact.DEMANDE.length} caractères`,
    );
    expect(confirmation!.text).toContain('Téléphone : numéro se terminant par 78');
    for (const value of [contact.JOB_TITLE, 'bio', 'spam.example', contact.SMS]) {
      for (const part of parts) expect(part).not.toContain(value);
    }
  });

  it('subscribe: one notification to the agency, and to the subscriber only the link to confirm (docs/consent.md)', async () => {
    await postJson(t.app, '/api/subscribe', { ...validSubscribe, source: 'page-accueil' });
    const mails = await outbox();
    expect(Object.keys(mails).sort()).toEqual(['notification', 'optin']);
    expect(mails.optin!.to?.[0]?.address).toBe(validSubscribe.email);
    expect(mails.notification!.to?.[0]?.address).toBe(AGENCY);
    expect(mails.notification!.subject).toBe('Nouvelle inscription à la lettre : Léa');
    expect(mails.notification!.replyTo?.[0]?.address).toBe(validSubscribe.email);
    expect(mails.notification!.text).toContain('Origine de l’inscription : page-accueil');
  });

  it('audit: the notification carries the sector and every questionnaire answer', async () => {
    const formData = {
      [QUESTIONNAIRES.btp[0]!.question]: 'Une trentaine',
      [QUESTIONNAIRES.btp[8]!.question]: 'Non',
    };
    await postJson(t.app, '/api/audit', { ...validAudit, formData });
    const { notification } = await outbox();
    // docs/emails.md: the sector's French name, never its API value.
    expect(notification!.subject).toBe(
      'Nouvelle demande d’audit : Paul, Artisans et entreprises du BTP',
    );
    expect(notification!.text).toContain('Secteur : Artisans et entreprises du BTP');
    expect(notification!.text).not.toContain('btp');
    for (const [question, answer] of Object.entries(formData)) {
      expect(notification!.text).toContain(`${question} : ${answer}`);
      expect(notification!.html).toContain(answer);
    }
  });

  it('a line break typed in a name never reaches a header', async () => {
    const PRENOM = 'Marie\r\nBcc: victime@example.org';
    expect((await postJson(t.app, '/api/contact', { ...contact, PRENOM })).statusCode).toBe(200);
    const { notification } = await outbox();
    const headers = notification!.raw.split('\r\n\r\n')[0]!;
    expect(headers).not.toMatch(/^Bcc:/im);
    expect(notification!.bcc).toBeUndefined();
    expect(notification!.subject).toMatch(/^Nouvelle demande de contact : Marie\b/);
    expect(notification!.subject).not.toMatch(/[\r\n]/);
  });
});
