import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../../src/features/site/build.ts';
import { staleReason } from '../../../src/features/site/freshness.ts';
import {
  DEFAULT_PRIVACY,
  type PrivacySettings,
} from '../../../src/features/site/privacy-notice.ts';
import { AGENCY } from '../../../src/features/site/agency.ts';

const roots: string[] = [];
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

async function privacyPage(privacy: PrivacySettings) {
  const root = mkdtempSync(join(tmpdir(), 'leadgate-privacy-'));
  roots.push(root);
  const outDir = join(root, 'dist');
  await buildSite({ siteUrl: 'http://localhost:3000', outDir, privacy });
  return {
    outDir,
    markdown: readFileSync(join(outDir, 'politique-de-confidentialite.md'), 'utf8'),
    html: readFileSync(join(outDir, 'politique-de-confidentialite/index.html'), 'utf8'),
  };
}

describe('docs/consent.md: the privacy notice is generated from the configuration', () => {
  it('states the CNIL list: controller, purposes and legal basis per form, required fields, recipients, retention, rights, complaint', async () => {
    const { markdown, html } = await privacyPage(DEFAULT_PRIVACY);
    for (const heading of [
      'Responsable du traitement',
      'Formulaire de contact',
      'Questionnaire d’audit par secteur',
      'Newsletter',
      'Qui reçoit vos données',
      'Combien de temps nous les conservons',
      'Vos droits',
    ]) {
      expect(markdown).toContain(heading);
    }
    expect(markdown).toContain(AGENCY.legal.companyName);
    expect(markdown).toContain(AGENCY.contact.email);
    expect(markdown).toMatch(/Base légale\*\* : mesures précontractuelles/);
    expect(markdown).toMatch(/Champs obligatoires\*\* : adresse e-mail, prénom/);
    expect(markdown).toContain('1 095 jours (3 ans) après votre dernière demande');
    expect(markdown).toContain('cnil.fr/fr/plaintes');
    // The outbox sends nothing to a third party: Brevo is not named as a recipient.
    expect(markdown).not.toContain('Brevo');
    expect(html).toContain('Vos droits');
  });

  it('names Brevo only when it is the provider, and states RETENTION_DAYS as configured', async () => {
    const { markdown, outDir } = await privacyPage({
      ...DEFAULT_PRIVACY,
      mailProvider: 'brevo',
      retentionDays: 730,
      webhooks: 2,
    });
    expect(markdown).toContain('**Brevo**');
    expect(markdown).toContain('730 jours (2 ans)');
    expect(markdown).toContain('2 destination(s)');
    expect(markdown).not.toContain('1 095');
    // A start with other settings rebuilds the site before serving it.
    expect(
      staleReason(outDir, 'http://localhost:3000', {
        ...DEFAULT_PRIVACY,
        mailProvider: 'brevo',
        retentionDays: 730,
        webhooks: 2,
      }),
    ).toBeNull();
    expect(staleReason(outDir, 'http://localhost:3000', DEFAULT_PRIVACY)).toMatch(/privacy/);
  });
});
