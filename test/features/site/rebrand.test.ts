import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import PostalMime from 'postal-mime';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

/**
 * Not imported from src/features/site/agency.ts: importing it would load the sample before
 * AGENCY_FILE is set.
 */
const SAMPLE_IDENTITY_FILE = join(import.meta.dirname, '../../../site/agency.yaml');

/*
 * docs/site.md "L'identité de l'agence": an agency rebrands the site by editing one file. The sample is
 * copied, every `!exemple` value replaced (straight apostrophes, accents), a new PNG logo and a new
 * colour dropped in; the build then speaks for "Atelier Lumen, Nantes" everywhere a person or a
 * program reads who the agency is, and nothing of the sample is left.
 */

const root = mkdtempSync(join(tmpdir(), 'leadgate-rebrand-'));
const dist = join(root, 'dist');
const SITE_URL = 'https://atelier-lumen.fr';

/** Every sample line rewritten as Atelier Lumen would write it, by the sample's own text. */
const LUMEN: [string, string][] = [
  ['name: !exemple Repère', 'name: Atelier Lumen'],
  ['tagline: Agence web de proximité', "tagline: L'atelier web de l'Ouest"],
  ["brandColor: '#1d4ed8'", "brandColor: '#0f766e'"],
  ['logo: logo.svg', 'logo: lumen.png'],
  ['companyName: !exemple Repère Web', "companyName: L'Atelier Lumen"],
  ['legalForm: !exemple SAS', 'legalForm: SARL'],
  ['capital: !exemple 5 000 €', 'capital: 8 000 €'],
  ['siret: !exemple 912 345 678 00014', 'siret: 834 567 123 00021'],
  ['registration: !exemple RCS Lyon 912 345 678', 'registration: RCS Nantes 834 567 123'],
  ['vatNumber: !exemple FR 27 912 345 678', 'vatNumber: FR 61 834 567 123'],
  ['street: !exemple 14 rue de la République', 'street: 3 quai de la Fosse'],
  ["postalCode: !exemple '69002'", "postalCode: '44000'"],
  ['locality: !exemple Lyon', 'locality: Nantes'],
  ['email: !exemple bonjour@agence-repere.example', 'email: bonjour@atelier-lumen.fr'],
  ["phone: !exemple '+33465711234'", "phone: '+33240123456'"],
  ['phoneDisplay: !exemple 04 65 71 12 34', 'phoneDisplay: 02 40 12 34 56'],
  ['senderName: !exemple Repère, agence web', "senderName: L'Atelier Lumen"],
  ["Claire Martin et l'équipe de Repère", "Anaïs Le Goff, pour l'Atelier Lumen"],
  ['Agence web de proximité, Lyon', 'Nantes'],
  ['Claire Martin', 'Anaïs Le Goff'],
  ['présidente', 'gérante'],
];

let html: string;
let files: string[];
const read = (file: string) => readFileSync(join(dist, file), 'utf8');

beforeAll(async () => {
  mkdirSync(join(root, 'images'));
  let text = readFileSync(SAMPLE_IDENTITY_FILE, 'utf8');
  for (const [from, to] of LUMEN) {
    expect(text, from).toContain(from);
    text = text.replaceAll(from, to);
  }
  // Every other sample value is kept as the agency's own (its tag removed): none is left.
  writeFileSync(join(root, 'agency.yaml'), text.replaceAll('!exemple ', ''));
  await sharp({ create: { width: 256, height: 256, channels: 4, background: '#0f766e' } })
    .png()
    .toFile(join(root, 'images/lumen.png'));
  // The identity is read once per process, from AGENCY_FILE (src/features/site/agency.ts), and the
  // test files of a worker share their modules (docs/quality.md, « How the suite runs »): this
  // file loads its own, with Lumen's identity, and leaves none of them to the next file.
  process.env.AGENCY_FILE = join(root, 'agency.yaml');
  vi.resetModules();
  const { buildSite } = await import('../../../src/features/site/build.ts');
  const result = await buildSite({ siteUrl: SITE_URL, outDir: dist });
  expect(result.warnings).toEqual([]);
  html = read('index.html');
  files = readdirSync(dist, { recursive: true })
    .map(String)
    .filter((file) => /\.(html|md|txt|json|xml)$/.test(file));
}, 120_000);
afterAll(() => {
  delete process.env.AGENCY_FILE;
  vi.resetModules();
  rmSync(root, { recursive: true, force: true });
});

describe('rebranding by editing only the identity file (docs/site.md)', () => {
  it('pages: name, tagline with apostrophes, address, phone, logo and colour', () => {
    expect(html).toContain('<title>Atelier Lumen · ');
    expect(html).toContain('L’atelier web de l’Ouest');
    expect(html).toContain('3 quai de la Fosse, 44000 Nantes');
    expect(html).toContain('href="tel:+33240123456"');
    expect(html).toMatch(
      /<img src="\/assets\/logo\.[0-9a-f]{10}\.png" width="32" height="32" alt="">/,
    );
    expect(html).toContain('<link rel="icon" href="/favicon.png" type="image/png">');
    expect(html).toContain('<meta name="theme-color" content="#0f766e">');
    const css = readdirSync(join(dist, 'assets')).find((file) => /^site\..+\.css$/.test(file))!;
    expect(read(join('assets', css))).toContain('--accent: #0f766e;');
  });

  it('the logo is resized for sharp screens (64 px high), the favicon is the logo', async () => {
    const logo = readdirSync(join(dist, 'assets')).find((file) => file.startsWith('logo.'))!;
    await expect(sharp(join(dist, 'assets', logo)).metadata()).resolves.toMatchObject({
      format: 'png',
      height: 64,
    });
    expect(existsSync(join(dist, 'favicon.png'))).toBe(true);
    expect(existsSync(join(dist, 'favicon.svg'))).toBe(false);
  });

  it('Markdown: the legal notice names the new publisher, straight apostrophes kept', () => {
    const notice = read('mentions-legales.md');
    expect(notice).toContain("Raison sociale : L'Atelier Lumen");
    expect(notice).toContain('SIRET : 834 567 123 00021');
    expect(notice).toContain('Anaïs Le Goff, gérante.');
  });

  it('llms.txt: the new name and identity', () => {
    const llms = read('llms.txt');
    expect(llms.startsWith('# Atelier Lumen\n')).toBe(true);
    expect(llms).toContain(
      "L’agence : L'Atelier Lumen, SARL, SIRET 834 567 123 00021, 3 quai de la Fosse, 44000 Nantes.",
    );
  });

  it('JSON-LD: the organisation as search engines read it', () => {
    const json = /<script type="application\/ld\+json">(.+?)<\/script>/.exec(html)![1]!;
    const data = JSON.parse(json) as Record<string, unknown>;
    expect(data).toMatchObject({
      name: 'Atelier Lumen',
      legalName: "L'Atelier Lumen",
      telephone: '+33240123456',
      email: 'bonjour@atelier-lumen.fr',
      address: { postalCode: '44000', addressLocality: 'Nantes' },
      identifier: { value: '834 567 123 00021' },
    });
  });

  it('e-mails: the confirmation, the opt-in and the notification speak for the new agency', async () => {
    const { mailIdentity } = await import('../../../src/features/site/mail-identity.ts');
    const { mailPreviews } = await import('../../../src/cli/mail-previews.ts');
    const settings = {
      from: 'bonjour@atelier-lumen.fr',
      agencyEmail: 'equipe@atelier-lumen.fr',
      siteUrl: SITE_URL,
      identity: mailIdentity(),
    };
    const previews = [...mailPreviews('contact', settings), ...mailPreviews('opt-in', settings)];
    expect(previews.map((preview) => preview.name)).toEqual([
      'contact-confirmation',
      'contact-notification',
      'subscribe-opt-in',
    ]);
    for (const preview of previews) {
      const mail = await PostalMime.parse(preview.eml);
      expect(mail.from?.address, preview.name).toBe('bonjour@atelier-lumen.fr');
      expect(`${mail.text}${mail.html}`, preview.name).not.toMatch(/Repère|Claire Martin|Lyon/);
      if (preview.name !== 'contact-notification') {
        // What a person reads, typeset as the pages are: the apostrophe is typographic.
        expect(mail.from?.name, preview.name).toBe('L’Atelier Lumen');
        expect(mail.text, preview.name).toContain('Anaïs Le Goff, pour l’Atelier Lumen');
        expect(mail.text, preview.name).toContain('3 quai de la Fosse, 44000 Nantes');
      }
    }
  });

  it('nothing of the sample identity is left in any page or file', () => {
    for (const file of files) {
      const text = read(file);
      for (const sample of [
        'Repère',
        'agence-repere',
        '912 345 678',
        'Claire Martin',
        '04 65 71 12 34',
      ]) {
        expect(text.includes(sample), `${file}: ${sample}`).toBe(false);
      }
    }
  });
});
