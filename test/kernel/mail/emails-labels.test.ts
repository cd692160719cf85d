import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import PostalMime from 'postal-mime';
import { afterAll, describe, expect, it } from 'vitest';
import { mailIdentity } from '../../../src/features/site/mail-identity.ts';
import { previewMail } from '../../../src/cli/mail-commands.ts';
import { loadConfig } from '../../../src/kernel/config.ts';
import { consentRecord } from '../../../src/kernel/lead/consent.ts';
import type { Lead } from '../../../src/kernel/lead/lead.ts';
import { confirmationEmail } from '../../../src/features/intake/confirmation-email.ts';
import { doubleOptInEmail } from '../../../src/features/newsletter/double-opt-in-email.ts';
import { mailPreviews, PREVIEWS } from '../../../src/cli/mail-previews.ts';
import { agencyNotification } from '../../../src/features/intake/notification-email.ts';
import { LEAD_KINDS, type LeadRequest } from '../../../src/kernel/schemas/lead-kinds.ts';
import { QUESTIONNAIRES } from '../../../src/kernel/schemas/questionnaires.ts';

/*
 * docs/emails.md: no e-mail a person reads names a field by its API key (`firstName :`,
 * `SMS__COUNTRY_CODE :`), for every field of every schema; the labels are the schemas' titles.
 */
const SETTINGS = {
  from: 'Repère <bonjour@agence-test.fr>',
  agencyEmail: 'equipe@agence-test.fr',
  siteUrl: 'https://www.agence-test.fr',
  identity: mailIdentity(),
};

const FIELD_NAMES = [...new Set(LEAD_KINDS.flatMap((kind) => Object.keys(kind.schema.properties)))];

/** The name as a word of its own, case kept: « Téléphone » does not hold the key `phone`. */
const asWord = (name: string) => new RegExp(`(?<![\\p{L}\\p{N}_])${name}(?![\\p{L}\\p{N}_])`, 'u');

function lead(request: LeadRequest, channel: 'form' | 'api' | 'agent' | 'mcp'): Lead {
  const receivedAt = new Date('2026-11-26T05:48:00Z');
  const { record } = consentRecord(request.kind, { channel, page: '/contact' }, receivedAt);
  return { ...request, id: '01KAXF3M7Q2R8S9T0V1W2X3Y4Z', receivedAt, consent: record };
}

/** Every field of every schema filled, with values that are none of the keys. */
const FULL_LEADS: Lead[] = [
  lead(
    {
      kind: 'contact',
      data: {
        PRENOM: 'Marie',
        NOM: 'Dupont',
        EMAIL: 'marie.dupont@example.fr',
        JOB_TITLE: 'Avocate',
        TYPE_BESOIN: 'Attirer,Convertir',
        SERVICE: 'Référencement local',
        DEMANDE: 'Apparaître dans les résultats de mon quartier.',
        SMS: '612345678',
        SMS__COUNTRY_CODE: '+33',
        TOOL_SOURCE: 'diagnostic-gratuit',
        TOOL_DATA: '{"score":42}',
      },
    },
    'mcp',
  ),
  lead(
    {
      kind: 'subscribe',
      data: {
        email: 'lea@example.fr',
        firstName: 'Léa',
        lastName: 'Bernard',
        source: 'page-accueil',
      },
    },
    'form',
  ),
  lead(
    {
      kind: 'audit',
      data: {
        email: 'paul@example.fr',
        firstName: 'Paul',
        lastName: 'Martin',
        phone: '06 12 34 56 78',
        sector: 'btp',
        formData: { [QUESTIONNAIRES.btp[0]!.question]: 'Couvreur', 'Autre question ?': 'Oui' },
      },
    },
    'agent',
  ),
];

const LINKS = {
  confirmUrl: 'https://www.agence-test.fr/newsletter/confirmation?jeton=x',
  unsubscribeUrl: 'https://www.agence-test.fr/newsletter/desinscription?jeton=x',
};

describe('French labels, never API keys, in every e-mail a person reads (docs/emails.md)', () => {
  it('every field of every schema has a French title', () => {
    for (const kind of LEAD_KINDS) {
      for (const [name, schema] of Object.entries(kind.schema.properties)) {
        expect((schema as { title?: string }).title, `${kind.kind}.${name}`).toMatch(/^\p{Lu}/u);
      }
    }
  });

  it('no key of any schema appears in the confirmation, the opt-in or any notification', () => {
    const mails = FULL_LEADS.flatMap((full) => [
      agencyNotification(full, SETTINGS),
      ...(full.kind === 'contact' ? [confirmationEmail(full, SETTINGS)] : []),
      ...(full.kind === 'subscribe' ? [doubleOptInEmail(full, SETTINGS, LINKS)] : []),
    ]);
    expect(mails).toHaveLength(5);
    expect(FIELD_NAMES).toEqual(expect.arrayContaining(['firstName', 'SMS__COUNTRY_CODE']));
    for (const mail of mails) {
      for (const name of FIELD_NAMES) {
        for (const part of [mail.subject, mail.text, mail.html]) {
          expect(part, `${mail.role}: ${name}`).not.toMatch(asWord(name));
        }
      }
    }
  });

  it('the check finds a key when one is there', () => {
    expect('firstName : Marie').toMatch(asWord('firstName'));
    expect('Téléphone : 06').not.toMatch(asWord('phone'));
  });
});

describe('leadgate mail preview (docs/emails.md)', () => {
  const directory = mkdtempSync(join(tmpdir(), 'leadgate-preview-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('writes each e-mail as .eml and HTML, with the server’s configuration', async () => {
    const config = loadConfig({
      DATA_DIR: directory,
      SITE_URL: 'https://www.agence-test.fr',
      MAIL_FROM: 'bonjour@agence-test.fr',
    });
    let said = '';
    const out = new Writable({
      write(chunk, _encoding, done) {
        said += String(chunk);
        done();
      },
    });
    for (const name of PREVIEWS) await previewMail(config, name, join(directory, name), out);
    expect(readdirSync(join(directory, 'contact')).sort()).toEqual([
      'contact-confirmation.eml',
      'contact-confirmation.html',
      'contact-notification.eml',
      'contact-notification.html',
    ]);
    expect(readdirSync(join(directory, 'notification'))).toHaveLength(6);
    expect(readdirSync(join(directory, 'opt-in')).sort()).toEqual([
      'subscribe-opt-in.eml',
      'subscribe-opt-in.html',
    ]);
    expect(said).toContain('Nous avons bien reçu votre demande');
    const eml = readFileSync(join(directory, 'contact', 'contact-confirmation.eml'));
    const mail = await PostalMime.parse(eml);
    expect(mail.from?.address).toBe('bonjour@agence-test.fr');
    expect(mail.text).toContain('https://www.agence-test.fr/vos-donnees');
    // The same HTML, line breaks aside (MIME sends CRLF, postal-mime gives LF back).
    const lines = (text: string) => text.replace(/\r\n/g, '\n').trimEnd();
    expect(lines(mail.html!)).toBe(
      lines(readFileSync(join(directory, 'contact', 'contact-confirmation.html'), 'utf8')),
    );
  });

  it('every preview has a text part and an HTML part', async () => {
    for (const name of PREVIEWS) {
      for (const preview of mailPreviews(name, SETTINGS)) {
        const mail = await PostalMime.parse(preview.eml);
        expect(mail.text, preview.name).toBeTruthy();
        expect(mail.html, preview.name).toContain('<html lang="fr">');
      }
    }
  });
});
