import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inviteStaff } from '../../../src/features/staff/invitations.ts';
import { validContact } from '../../helpers/app.ts';
import { axeViolations, withAxe } from '../../helpers/browser-axe.ts';
import { useSiteInChromium } from '../../helpers/browser-site.ts';
import { watchProblems } from '../../helpers/browser.ts';
import { startSmtpSink, type SmtpSink } from '../../helpers/smtp-sink.ts';

const PASSWORD = 'le café du matin est prêt';
const INBOUND = 'reponses@agence.example';

const RUNS = [
  { width: 390, javaScript: true },
  { width: 1366, javaScript: false },
];

/**
 * docs/workspace.md, « Répondre », in Debian's Chromium with JavaScript on and off: a member opens
 * a lead, picks a template (a GET form: no script needed), sends the answer; exactly one e-mail
 * reaches the prospect through a real SMTP server, from the member, threaded under the
 * confirmation, Reply-To INBOUND_ADDRESS, and the lead reads « Répondu ».
 */
describe('answering a lead in Chromium (docs/workspace.md)', () => {
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink();
  });
  afterAll(async () => {
    await sink.close();
  });
  const chromium = useSiteInChromium(() => ({
    MAIL_PROVIDER: 'smtp',
    SMTP_URL: sink.url,
    DELIVERY: 'queued',
    INBOUND_ADDRESS: INBOUND,
  }));
  beforeAll(() => chromium.served.test.app.dispatcher.start());

  for (const { width, javaScript } of RUNS) {
    it(`at ${width} px, JavaScript ${javaScript ? 'on' : 'off'}`, async () => {
      const { origin, test } = chromium.served;
      const prospect = `sophie.${width}@example.fr`;
      const staffName = `Claire ${width}`;
      const toProspect = () => sink.received.filter((mail) => mail.envelopeTo.includes(prospect));
      const response = await fetch(`${origin}/api/contact`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          ...validContact,
          PRENOM: 'Sophie',
          NOM: `Laurent${width}`,
          EMAIL: prospect,
          SERVICE: 'Fiche Google',
        }),
      });
      expect(response.status).toBe(200);
      await expect.poll(() => toProspect().length).toBe(1);
      const confirmation = toProspect()[0]!.email;

      const email = `claire-${width}@agence.fr`;
      const { link } = await inviteStaff(test.store, {
        email,
        role: 'member',
        siteUrl: origin,
        now: new Date(),
        invitedBy: null,
      });
      const context = await chromium.newContext({
        viewport: { width, height: 900 },
        javaScriptEnabled: javaScript,
      });
      if (javaScript) await withAxe(context);
      const page = await context.newPage();
      const problems = watchProblems(page, (_url, status) => status === 401);
      await page.goto(link);
      await page.getByLabel('Votre nom').fill(staffName);
      await page.getByLabel(/^Mot de passe/).fill(PASSWORD);
      await page.getByLabel(/^Le même mot de passe/).fill(PASSWORD);
      await page.getByRole('button', { name: 'Enregistrer mon mot de passe' }).click();
      await page.waitForURL(`${origin}/equipe/connexion?bienvenue`);
      await page.getByLabel(/^Adresse e-mail/).fill(email);
      await page.getByLabel(/^Mot de passe/).fill(PASSWORD);
      await page.getByRole('button', { name: 'Se connecter' }).click();
      await page.waitForURL(`${origin}/equipe`);

      await page.getByRole('link', { name: `Sophie Laurent${width}` }).click();
      await page.waitForURL(/\/equipe\/prospects\/[^/]+$/);
      await page.getByRole('link', { name: 'Répondre' }).click();
      // The service's own template comes first; the general one is a choice away.
      expect(await page.getByLabel('Objet').inputValue()).toBe(
        'Votre fiche d’établissement Google',
      );
      await page.getByLabel('Modèle').selectOption({ label: 'Premier échange' });
      await page.getByRole('button', { name: 'Utiliser ce modèle' }).click();
      await expect.poll(() => page.getByLabel('Message').inputValue()).toContain('Bonjour Sophie,');
      expect(await page.getByLabel('Message').inputValue()).toContain(
        'Merci pour votre demande concernant Fiche Google.',
      );
      if (javaScript) expect(await axeViolations(page), page.url()).toEqual([]);
      await page.getByRole('button', { name: 'Envoyer la réponse' }).click();
      await expect
        .poll(() => page.locator('#repondre').innerText())
        .toContain(`Répondu par e-mail par ${staffName}`);
      await expect.poll(() => toProspect().length).toBe(2);

      const answer = toProspect()[1]!.email;
      expect(answer.from?.name).toContain(staffName);
      expect(answer.inReplyTo).toBe(confirmation.messageId);
      expect(answer.references).toBe(confirmation.messageId);
      expect(answer.replyTo?.map((to) => to.address)).toEqual([INBOUND]);
      expect(answer.text).toContain('Bonjour Sophie,');
      // Sent once: the loop's later rounds send nothing more.
      const rounds = test.app.dispatcher.rounds();
      await expect.poll(() => test.app.dispatcher.rounds()).toBeGreaterThan(rounds + 2);
      expect(toProspect()).toHaveLength(2);
      expect(problems).toEqual([]);
    }, 240_000);
  }
});
