import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  serveProcessIdentity,
  servedMailIdentity,
} from '../../../src/features/site/served-identity.ts';
import { createProvider } from '../../../src/providers/create-provider.ts';
import type { Provider } from '../../../src/features/delivery/provider.ts';
import { createTeamSummaryFor } from '../../../src/wiring/team-summary-setup.ts';
import { acceptedContact } from '../../helpers/api-assertions.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';
import { buildTestSite, DEFAULT_TEST_SITE_URL, type TestSite } from '../../helpers/site.ts';
import { startSmtpSink, type ReceivedMail, type SmtpSink } from '../../helpers/smtp-sink.ts';
import { runLeadgate } from '../../scale/leadgate-node.ts';
import { activeMember, FAST_SCRYPT, postForm, signIn } from '../staff/staff-session.ts';

/*
 * docs/site.md, « Serving »: `leadgate build` with a new identity, in a process of its own, while a
 * server serves the site: the server's next e-mails of every kind (confirmation, notification to
 * the agency, alert, daily summary, a staff member's answer) and its workspace (header, title, the
 * TOTP issuer) speak with the new identity, without a restart.
 */
const SITE_DIR = join(import.meta.dirname, '../../../site');
const AGENCY_EMAIL = 'equipe@agence.example';
const PROSPECT = 'marie.dupont@example.fr';

/** The sample rebranded by the lines a person reads in e-mails and in the workspace. */
const LUMEN: [string, string][] = [
  ['name: !exemple Repère', 'name: Atelier Lumen'],
  ['senderName: !exemple Repère, agence web', 'senderName: Atelier Lumen, Nantes'],
  ["Claire Martin et l'équipe de Repère", "Anaïs Le Goff, pour l'Atelier Lumen"],
  ['Agence web de proximité, Lyon', 'Nantes'],
  ['street: !exemple 14 rue de la République', 'street: 3 quai de la Fosse'],
  ["postalCode: !exemple '69002'", "postalCode: '44000'"],
  ['locality: !exemple Lyon', 'locality: Nantes'],
];

const root = mkdtempSync(join(tmpdir(), 'leadgate-rebrand-live-'));
let site: TestSite;
let sink: SmtpSink;
let test: TestApp;
let provider: Provider;

beforeAll(async () => {
  let text = readFileSync(join(SITE_DIR, 'agency.yaml'), 'utf8');
  for (const [from, to] of LUMEN) {
    expect(text, from).toContain(from);
    text = text.replaceAll(from, to);
  }
  writeFileSync(join(root, 'agency.yaml'), text);
  cpSync(join(SITE_DIR, 'images'), join(root, 'images'), { recursive: true });
  site = await buildTestSite();
  // A visitor's mail server that never accepts (451, docs/delivery.md « Dead »): the confirmation
  // dies at its first attempt, an alert follows.
  sink = await startSmtpSink({
    recipientCode: (address) => (address.startsWith('injoignable') ? 451 : undefined),
  });
  test = await buildTestApp({
    siteDir: site.dir,
    dispatch: true,
    passwordCost: FAST_SCRYPT,
    dispatcherTimings: { pollMs: 20, alertCheckMs: 50 },
    env: {
      DELIVERY: 'queued',
      MAIL_PROVIDER: 'smtp',
      SMTP_URL: sink.url,
      AGENCY_EMAIL,
      DELIVERY_MAX_ATTEMPTS: '1',
      DELIVERY_RETRY_BASE_MS: '1',
      DELIVERY_RETRY_MAX_MS: '1',
    },
    // What src/server.ts gives the provider: the served identity, read at each e-mail.
    provider: (config, journal) => (provider = createProvider(config, journal, servedMailIdentity)),
  });
}, 120_000);
afterAll(async () => {
  // The holder is one per process (a process serves one site): the next test file of this worker
  // (docs/quality.md, modules kept within a worker) starts from this process's identity file.
  serveProcessIdentity();
  await test?.close();
  await sink?.close();
  site?.remove();
  rmSync(root, { recursive: true, force: true });
});

const signInPage = async () => (await test.app.inject({ url: '/equipe/connexion' })).body;

/** The e-mails received since `from`, each with what a person reads of who sent it. */
function mails(from: number): ReceivedMail[] {
  return sink.received.slice(from);
}

function expectLumen(mail: ReceivedMail, sender = 'Atelier Lumen, Nantes') {
  const { email } = mail;
  expect(email.from?.name, email.subject).toBe(sender);
  expect(email.text, email.subject).toContain('3 quai de la Fosse, 44000 Nantes');
  expect(email.html, email.subject).toContain('Atelier Lumen');
  expect(`${email.text}${email.html}`, email.subject).not.toMatch(/Repère|République|Lyon/);
}

describe('a rebuild with a new identity reaches e-mails and workspace without a restart (docs/site.md, « Serving »)', () => {
  it('before: the sample’s name in the workspace', async () => {
    expect(await signInPage()).toContain('<title>Connexion · Espace équipe · Repère</title>');
  });

  it(
    '`leadgate build` with AGENCY_FILE: the next e-mail of each kind and the workspace speak for Atelier Lumen',
    {
      timeout: 180_000,
    },
    async () => {
      const build = await runLeadgate(['build'], {
        AGENCY_FILE: join(root, 'agency.yaml'),
        DIST_DIR: site.dir,
        SITE_URL: DEFAULT_TEST_SITE_URL,
        LEADGATE_BUNDLE: '0',
      });
      expect(build.code, build.errors).toBe(0);
      await expect
        .poll(signInPage)
        .toContain('<title>Connexion · Espace équipe · Atelier Lumen</title>');
      expect(await signInPage()).toContain('<a class="brand" href="/equipe">Atelier Lumen<small>');

      // A contact request: the confirmation to the person, the notification to the agency.
      const start = sink.received.length;
      const leadId = await acceptedContact(test.app, PROSPECT);
      await expect.poll(() => mails(start).length).toBe(2);
      const confirmation = mails(start).find((mail) => mail.envelopeTo.includes(PROSPECT))!;
      expectLumen(confirmation);
      expect(confirmation.email.text).toContain('Anaïs Le Goff, pour l’Atelier Lumen');
      expectLumen(mails(start).find((mail) => mail.envelopeTo.includes(AGENCY_EMAIL))!);

      // A confirmation that dies: the alert to the agency.
      const beforeAlert = sink.received.length;
      await acceptedContact(test.app, 'injoignable@example.fr');
      const alert = () =>
        mails(beforeAlert).find((mail) => mail.email.subject?.includes('abandonné'));
      await expect.poll(alert).toBeDefined();
      expectLumen(alert()!);

      // The daily summary, as `serve` sends it (src/server.ts), on a business morning.
      const beforeSummary = sink.received.length;
      const summary = createTeamSummaryFor(
        test.config,
        test.store,
        provider,
        servedMailIdentity,
        test.app.log,
        () => new Date('2026-12-02T08:00:00Z'),
      )!;
      await summary.tick();
      await expect.poll(() => mails(beforeSummary).length).toBe(1);
      expectLumen(mails(beforeSummary)[0]!);

      // A member's answer from the lead page, under their name and the agency's.
      await activeMember(test.app, test.store, 'anais@atelier-lumen.fr', 'member');
      const session = await signIn(test.app, 'anais@atelier-lumen.fr');
      const beforeAnswer = sink.received.length;
      const answered = await postForm(
        test.app,
        `/equipe/prospects/${leadId}/repondre`,
        {
          _csrf: session.csrf,
          objet: 'Votre site',
          message: 'Bonjour Marie,\n\nParlons-en jeudi ?',
        },
        session.cookie,
      );
      expect(answered.statusCode, answered.body).toBe(303);
      await expect.poll(() => mails(beforeAnswer).length).toBe(1);
      expectLumen(mails(beforeAnswer)[0]!, 'anais – Atelier Lumen');

      // The workspace's header, and the issuer an authenticator app shows for the code.
      const account = await test.app.inject({
        url: '/equipe/compte',
        headers: { cookie: session.cookie },
      });
      expect(account.body).toContain('<a class="brand" href="/equipe">Atelier Lumen<small>');
      expect(account.body).toMatch(
        /otpauth:\/\/totp\/Atelier%20Lumen%3Aanais[^"]*issuer=Atelier%20Lumen/,
      );
    },
  );
});
