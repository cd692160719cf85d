import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mailIdentity } from '../../../src/features/site/mail-identity.ts';
import { mailPreviews, PREVIEWS } from '../../../src/cli/mail-previews.ts';
import {
  privacyAccessEmail,
  privacyLinkEmail,
} from '../../../src/features/privacy/privacy-emails.ts';
import { FORM_MESSAGES, FORM_REFUSALS } from '../../../src/kernel/schemas/form-messages.ts';
import { elided, MISSED_ELISION } from '../../../src/kernel/schemas/french-text.ts';
import { NEWSLETTER_PAGES } from '../../../src/kernel/schemas/newsletter-pages.ts';
import { PRIVACY_PAGES } from '../../../src/kernel/schemas/privacy-pages.ts';
import { PRIVACY_KINDS } from '../../../src/kernel/schemas/privacy-request.ts';

/*
 * French elision (« d’effacer », never « de effacer »): every French text a person reads — the
 * site's content and identity, every e-mail as sent (its variable parts filled in), the pages of
 * the signed links, the forms' messages — is checked for a de/le/la/que/ce… left whole before a
 * vowel or a mute h.
 */
const SETTINGS = {
  from: 'Agence <bonjour@agence.example>',
  agencyEmail: 'equipe@agence.example',
  siteUrl: 'https://agence.example',
  identity: mailIdentity(),
};

function filesUnder(directory: string, ending: RegExp): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? filesUnder(join(directory, entry.name), ending)
      : ending.test(entry.name)
        ? [join(directory, entry.name)]
        : [],
  );
}

const plain = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/&#39;|’/g, '’');

function texts(): [string, string][] {
  const found: [string, string][] = [];
  for (const file of [...filesUnder('site/content', /\.md$/), 'site/agency.yaml']) {
    found.push([file, readFileSync(file, 'utf8')]);
  }
  for (const name of PREVIEWS) {
    for (const preview of mailPreviews(name, SETTINGS)) {
      found.push([`e-mail ${preview.name}`, `${preview.message.subject}\n${preview.message.text}`]);
      found.push([`e-mail ${preview.name} (HTML)`, plain(preview.message.html)]);
    }
  }
  for (const kind of PRIVACY_KINDS) {
    const mail = privacyLinkEmail('marie@example.fr', kind, 'https://agence.example/x', SETTINGS);
    found.push([`e-mail privacy-link ${kind}`, `${mail.text}\n${plain(mail.html)}`]);
  }
  const access = privacyAccessEmail('marie@example.fr', { leads: [] } as never, SETTINGS);
  found.push(['e-mail privacy-answer', `${access.text}\n${plain(access.html)}`]);
  for (const [state, page] of Object.entries({ ...NEWSLETTER_PAGES, ...PRIVACY_PAGES })) {
    found.push([`page ${state}`, `${page.title}\n${page.lead}\n${page.body}`]);
  }
  found.push(['form messages', Object.values({ ...FORM_MESSAGES, ...FORM_REFUSALS }).join('\n')]);
  return found;
}

describe('French elision in what people read', () => {
  it('elided() writes « d’effacer », « de vous », « l’adresse »', () => {
    expect(elided('de', 'effacer tout')).toBe('d’effacer tout');
    expect(elided('de', 'vous désinscrire')).toBe('de vous désinscrire');
    expect(elided('de', 'recevoir')).toBe('de recevoir');
    expect(elided('le', 'adresse')).toBe('l’adresse');
    expect(elided('de', 'haut')).toBe('de haut');
    expect('a demandé de effacer'.match(MISSED_ELISION)).toEqual(['de effacer']);
  });

  for (const [where, text] of texts()) {
    it(`${where}: no missed elision`, () => {
      expect(text.replace(/\u00a0|\u202f/g, ' ').match(MISSED_ELISION) ?? []).toEqual([]);
    });
  }
});
