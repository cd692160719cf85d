import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import PostalMime, { type Email } from 'postal-mime';
import { afterEach, describe, expect, it } from 'vitest';
import { AGENCY, type Agency } from '../../../src/features/site/agency.ts';
import { mailIdentity } from '../../../src/features/site/mail-identity.ts';
import { frenchDateTime } from '../../../src/kernel/lead/french-date.ts';
import { readableAccent } from '../../../src/kernel/mail/mail-layout.ts';
import { mailPreviews } from '../../../src/cli/mail-previews.ts';
import { currentWording } from '../../../src/kernel/schemas/consent.ts';
import { CONTACT_EXAMPLE } from '../../../src/kernel/schemas/examples.ts';
import { QUESTIONNAIRES } from '../../../src/kernel/schemas/questionnaires.ts';
import { postJson } from '../../helpers/api-assertions.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';

/*
 * docs/emails.md: the e-mails as a person's mail client shows them, read back from the outbox's
 * .eml files by a real MIME parser (postal-mime).
 */
const SITE = 'https://www.agence-test.fr';
const FROM = 'bonjour@agence-test.fr';
const TEAM = 'equipe@agence-test.fr';
const IDENTITY = mailIdentity();
const CONTACT_WORDING = currentWording('contact').version;

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function start(): Promise<TestApp> {
  t = await buildTestApp({
    env: { SITE_URL: SITE, MAIL_FROM: `Agence <${FROM}>`, AGENCY_EMAIL: TEAM },
  });
  return t;
}

/** The outbox's messages, parsed, by role (the file name's suffix). */
async function outbox(app: TestApp): Promise<Record<string, Email>> {
  const directory = join(app.dataDir, 'outbox');
  const entries = await Promise.all(
    readdirSync(directory).map(async (file) => {
      const role = file
        .replace(/\.eml$/, '')
        .split('-')
        .at(-1)!;
      return [role, await PostalMime.parse(readFileSync(join(directory, file)))] as const;
    }),
  );
  return Object.fromEntries(entries);
}

/** What the person sees, whitespace as one space (the HTML part's text, as a browser shows it). */
function visible(html: string): string {
  return html
    .replace(/<head>[\s\S]*<\/head>/, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

describe('the confirmation says what was received, who sent it, what happens next, how to delete it', () => {
  it('contact sent by an assistant: from the agency, « Bonjour Marie, », summary, signature, /vos-donnees', async () => {
    const app = await start();
    const body = { ...CONTACT_EXAMPLE, consent: { version: CONTACT_WORDING, channel: 'agent' } };
    expect((await postJson(app.app, '/api/contact', body)).statusCode).toBe(200);
    const { confirmation } = await outbox(app);
    const mail = confirmation!;

    // From: the identity's sender name at MAIL_FROM's address; a reply reaches the team.
    expect(mail.from).toEqual({ name: AGENCY.mail.senderName, address: FROM });
    expect(mail.replyTo?.map((to) => to.address)).toEqual([TEAM]);
    // An HTML part and a text part, both saying the same.
    expect(mail.html).toMatch(/^<!doctype html>\n<html lang="fr">/);
    expect(mail.text).toBeTruthy();
    for (const part of [mail.text!, visible(mail.html!)]) {
      expect(part).toContain('Bonjour Marie,');
      // What was received: French labels, harmless values.
      expect(part).toMatch(/Prénom :? ?Marie/);
      expect(part).toMatch(/Service souhaité :? ?Référencement local/);
      // Who sent it: an assistant, on the person's behalf (the consent channel says so).
      expect(part).toContain('envoyée par un assistant IA agissant pour vous');
      // What happens next, and when.
      expect(part).toMatch(/sous 24\sheures ouvrées/u);
      // The agency's signature, address and phone, from the identity.
      for (const line of IDENTITY.texts.signature) expect(part).toContain(line);
      expect(part).toContain(IDENTITY.address);
      expect(part).toContain(AGENCY.contact.phoneDisplay);
      // How to have it deleted: never « just ignore ».
      expect(part).not.toMatch(/ignorez/i);
    }
    expect(mail.text).toContain(`${SITE}/vos-donnees`);
    expect(mail.html).toContain(`href="${SITE}/vos-donnees"`);
  });

  it('a form-sent request says the person wrote it; no first name made of letters, « Bonjour, »', async () => {
    const app = await start();
    await postJson(app.app, '/api/contact', {
      ...CONTACT_EXAMPLE,
      PRENOM: 'M4rie',
      consent: { version: CONTACT_WORDING, channel: 'form' },
    });
    const { confirmation } = await outbox(app);
    expect(confirmation!.text).toContain('Bonjour,\n');
    expect(confirmation!.text).toContain('Vous nous avez écrit depuis le formulaire de notre site');
    expect(confirmation!.text).toContain('Prénom : votre texte de 5 caractères');
  });
});

describe('the agency’s notification is triaged and answered from the inbox (docs/emails.md)', () => {
  it('contact: labels, Paris time, channel, Reply-To, subject, the lead’s page in the workspace', async () => {
    const app = await start();
    const body = {
      ...CONTACT_EXAMPLE,
      SMS: '612345678',
      SMS__COUNTRY_CODE: '+33',
      consent: { version: CONTACT_WORDING, channel: 'agent' },
    };
    await postJson(app.app, '/api/contact', body);
    const { notification } = await outbox(app);
    const [entry] = await app.store.list();
    const mail = notification!;
    expect(mail.to?.map((to) => to.address)).toEqual([TEAM]);
    // « Répondre » writes to the person.
    expect(mail.replyTo).toEqual([{ name: 'Marie Dupont', address: CONTACT_EXAMPLE.EMAIL }]);
    expect(mail.subject).toBe(
      'Nouvelle demande de contact : Marie Dupont, Avocate en droit de la famille (assistant IA)',
    );
    const text = mail.text!;
    // The date in French, Europe/Paris time; never the UTC ISO timestamp.
    expect(text).toContain(`Reçue le ${frenchDateTime(entry!.lead.receivedAt)} (heure de Paris)`);
    expect(text).not.toContain(entry!.lead.receivedAt.toISOString());
    expect(text).toContain('par : assistant IA agissant pour la personne (API ou WebMCP)');
    for (const row of [
      'Prénom : Marie',
      'Nom : Dupont',
      `Adresse e-mail : ${CONTACT_EXAMPLE.EMAIL}`,
      'Téléphone : +33 612345678',
      `Métier ou activité : ${CONTACT_EXAMPLE.JOB_TITLE}`,
      `Projet : ${CONTACT_EXAMPLE.DEMANDE}`,
    ]) {
      expect(text).toContain(row);
    }
    const page = `${SITE}/equipe/prospects/${entry!.lead.id}`;
    expect(text).toContain(page);
    expect(mail.html).toContain(`href="${page}"`);
    expect(mail.html).toContain('href="tel:+33612345678"');
  });

  it('audit: the sector’s French name, answers under their questions, an unknown one marked', async () => {
    const app = await start();
    const known = QUESTIONNAIRES.btp[0]!.question;
    await postJson(app.app, '/api/audit', {
      email: 'paul@example.fr',
      firstName: 'Paul',
      lastName: 'Martin',
      sector: 'btp',
      formData: { [known]: 'Couvreur', 'Travaillez-vous le samedi ?': 'Oui' },
    });
    const { notification } = await outbox(app);
    const mail = notification!;
    expect(mail.subject).toBe(
      'Nouvelle demande d’audit : Paul Martin, Artisans et entreprises du BTP',
    );
    expect(mail.text).toContain('Secteur : Artisans et entreprises du BTP');
    expect(mail.text).toContain('Réponses au questionnaire : Artisans et entreprises du BTP');
    expect(mail.text).toContain(`${known} : Couvreur\n`);
    expect(mail.text).toContain('Travaillez-vous le samedi ? : Oui (question hors questionnaire)');
    // A JSON call that names no channel is recorded as the API (docs/consent.md).
    expect(mail.text).toContain('par : API (un programme)');
    for (const part of [mail.subject!, mail.text!, mail.html!]) expect(part).not.toMatch(/\bbtp\b/);
  });
});

describe('French dates in Europe/Paris time (docs/emails.md)', () => {
  it.each([
    ['2026-11-26T05:48:36.727Z', '26 novembre 2026 à 6 h 48'], // winter: UTC+1
    ['2026-07-01T22:05:00Z', '2 juillet 2026 à 0 h 05'], // summer: UTC+2, the next day in Paris
    ['2026-02-28T23:30:00Z', '1er mars 2026 à 0 h 30'],
    ['2026-03-29T01:00:00Z', '29 mars 2026 à 3 h 00'], // the hour the clocks go forward
  ])('%s is « %s »', (instant, expected) => {
    expect(frenchDateTime(new Date(instant)).replace(/\u00a0/g, ' ')).toBe(expected);
  });
});

describe('the texts live with the identity (site/agency.yaml, docs/emails.md)', () => {
  it('a rebranded identity changes the sender, greeting, signature, colour and footer', async () => {
    const agency: Agency = {
      ...AGENCY,
      name: "L'Atelier d'Anne",
      brandColor: '#7c2d12',
      legal: {
        ...AGENCY.legal,
        address: {
          ...AGENCY.legal.address,
          street: '3 quai Tabarly',
          postalCode: '29200',
          locality: 'Brest',
        },
      },
      mail: {
        ...AGENCY.mail,
        senderName: "L'Atelier d'Anne",
        signature: "Anne Le Gall\nL'Atelier d'Anne, Brest",
        greeting: { named: 'Salut {prénom} !', anonymous: 'Salut !' },
      },
    };
    const settings = {
      from: FROM,
      agencyEmail: TEAM,
      siteUrl: SITE,
      identity: mailIdentity(agency),
    };
    const [confirmation] = mailPreviews('contact', settings);
    const mail = await PostalMime.parse(confirmation!.eml);
    // Typeset as the site is: the typographic apostrophe, a no-break space before « ! ».
    expect(mail.from).toEqual({ name: 'L’Atelier d’Anne', address: FROM });
    expect(mail.text).toContain('Salut Marie\u00a0!');
    expect(mail.text).toContain('Anne Le Gall\nL’Atelier d’Anne, Brest');
    expect(mail.text).toContain('3 quai Tabarly, 29200 Brest');
    expect(mail.html).toContain('background:#7c2d12');
    expect(mail.html).not.toContain('Repère');
  });

  it('a brand colour white text cannot be read on gives way to the site’s ink (WCAG 1.4.3)', () => {
    expect(readableAccent('#1d4ed8')).toBe('#1d4ed8');
    expect(readableAccent('#fde047')).toBe('#1f2937');
    expect(readableAccent('bleu')).toBe('#1f2937');
  });
});
