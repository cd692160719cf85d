import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import PostalMime, { type Email } from 'postal-mime';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, validAudit, validContact, type TestApp } from '../helpers/app.ts';
import { startFakeBrevo } from '../helpers/fake-brevo.ts';
import { startSmtpSink } from '../helpers/smtp-sink.ts';

let testApp: TestApp | undefined;
afterEach(async () => {
  await testApp?.close();
  testApp = undefined;
});

const INJECTION = 'Marie\r\nBcc: victime@example.com\r\nX-Injected: oui\n\rSubject: gagné';
/** An RFC 2047 encoded-word that decodes to CR/LF + Bcc, then bidi and format characters. */
const ENCODED_WORD = '=?UTF-8?Q?=0D=0ABcc:_x@evil.example_=E2=80=AE?=';
const FORMAT_CHARS = 'Ma\u202Erie\u200E\uFEFF\u2066';
/** Characters that reorder or hide text (Unicode Cf), the emoji zero-width joiner aside. */
const INVISIBLE = /(?!\u200d)\p{Cf}/u;
const MARKUP = '<script>alert(1)</script><a href="https://spam.example">Promo</a> & "co"';

/** The .eml files the outbox wrote, raw and parsed by a real MIME parser. */
async function outbox(role: 'confirmation' | 'notification') {
  const directory = join(testApp!.dataDir, 'outbox');
  const files = readdirSync(directory).filter((file) => file.endsWith(`-${role}.eml`));
  return Promise.all(
    files.map(async (file) => {
      const raw = readFileSync(join(directory, file));
      const head = raw.toString('latin1').split('\r\n\r\n')[0]!;
      return { head, email: (await PostalMime.parse(raw)) as Email };
    }),
  );
}

function headerNames(head: string): string[] {
  return head
    .split('\r\n')
    .filter((line) => !/^[ \t]/.test(line))
    .map((line) => line.split(':')[0]!.toLowerCase());
}

describe('e-mail safety (docs/reliability.md)', () => {
  it('no CR/LF from a field reaches a header: no added header, one-line subject and names', async () => {
    testApp = await buildTestApp();
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: { ...validContact, PRENOM: INJECTION, NOM: INJECTION, SERVICE: INJECTION },
    });
    expect(response.statusCode).toBe(200);
    for (const role of ['confirmation', 'notification'] as const) {
      const [mail] = await outbox(role);
      const names = headerNames(mail!.head);
      expect(names).not.toContain('bcc');
      expect(names).not.toContain('x-injected');
      expect(names.filter((name) => name === 'subject')).toHaveLength(1);
      expect(mail!.email.subject).not.toMatch(/[\r\n]/);
      for (const address of [mail!.email.from, ...(mail!.email.replyTo ?? [])]) {
        expect(address?.name ?? '').not.toMatch(/[\r\n]/);
      }
    }
    const [notification] = await outbox('notification');
    expect(notification!.email.replyTo?.[0]?.address).toBe(validContact.EMAIL);
    expect(notification!.email.subject).toContain('Marie Bcc: victime@example.com');
  });

  it('keeps Reply-To’s name within Brevo’s 70 characters, and never splits a character', async () => {
    testApp = await buildTestApp();
    await testApp.app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: { ...validContact, PRENOM: '🙂'.repeat(100) },
    });
    const [notification] = await outbox('notification');
    const name = notification!.email.replyTo?.[0]?.name ?? '';
    expect(Array.from(name).length).toBeLessThanOrEqual(70);
    expect(name).toMatch(/^(🙂)+$/u);
  });

  it('escapes every field in the HTML of the notification, questionnaire keys included', async () => {
    testApp = await buildTestApp();
    await testApp.app.inject({
      method: 'POST',
      url: '/api/audit',
      payload: {
        ...validAudit,
        firstName: MARKUP,
        lastName: MARKUP,
        formData: { [MARKUP]: MARKUP },
      },
    });
    const [notification] = await outbox('notification');
    const html = notification!.email.html ?? '';
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<a href="https://spam.example"');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&amp; &quot;co&quot;');
  });

  it('the confirmation to the unverified address repeats no link, address, number, markup or long text', async () => {
    testApp = await buildTestApp();
    // What a spammer types to turn a confirmation into an advert (docs/api-decisions.md).
    const typed = {
      ...validContact,
      PRENOM: 'Gagnez sur spam.example',
      NOM: 'Promo 4999 €',
      JOB_TITLE: 'Écrivez à promo@spam.example',
      SERVICE: 'www promo <a href="https://spam.example">ici</a>',
      DEMANDE: 'Achetez sur https://spam.example',
      SMS: '0612345678',
    };
    await testApp.app.inject({ method: 'POST', url: '/api/contact', payload: typed });
    const [confirmation] = await outbox('confirmation');
    const everything = [
      confirmation!.head,
      confirmation!.email.subject,
      confirmation!.email.text,
      confirmation!.email.html,
    ].join('\n');
    for (const value of ['spam.example', 'Promo', 'promo', '4999', '0612345678', 'href="https']) {
      expect(everything).not.toContain(value);
    }
    // The greeting falls back to « Bonjour, »; the fields are acknowledged by their length.
    expect(confirmation!.email.text).toContain('Bonjour,\n');
    expect(confirmation!.email.text).toContain('Nom : votre texte de 12 caractères');
    expect(confirmation!.email.to?.[0]?.address).toBe(validContact.EMAIL);
  });

  it('an encoded-word or a bidi override in a field never decodes into a header (outbox, SMTP, Brevo)', async () => {
    const hostile = {
      ...validContact,
      PRENOM: `${ENCODED_WORD} ${FORMAT_CHARS}`,
      NOM: ENCODED_WORD,
    };
    const smtp = await startSmtpSink();
    const brevo = await startFakeBrevo('k');
    try {
      const parsed: Email[] = [];
      testApp = await buildTestApp();
      await testApp.app.inject({ method: 'POST', url: '/api/contact', payload: hostile });
      for (const role of ['confirmation', 'notification'] as const) {
        const [mail] = await outbox(role);
        expect(headerNames(mail!.head)).not.toContain('bcc');
        parsed.push(mail!.email);
      }
      await testApp.close();

      testApp = await buildTestApp({ env: { MAIL_PROVIDER: 'smtp', SMTP_URL: smtp.url } });
      await testApp.app.inject({ method: 'POST', url: '/api/contact', payload: hostile });
      expect(smtp.received).toHaveLength(2);
      for (const received of smtp.received) {
        expect(received.envelopeTo).not.toContain('x@evil.example');
        parsed.push(received.email);
      }
      await testApp.close();

      testApp = await buildTestApp({
        env: {
          MAIL_PROVIDER: 'brevo',
          BREVO_API_KEY: 'k',
          BREVO_API_URL: brevo.url,
          BREVO_NEWSLETTER_LIST_ID: '8',
        },
      });
      await testApp.app.inject({ method: 'POST', url: '/api/contact', payload: hostile });
      const sent = brevo.requestsTo('/smtp/email').map((request) => request.body as SentByBrevo);
      expect(sent).toHaveLength(2);

      const notifications = parsed.filter((email) => email.subject?.startsWith('Nouvelle'));
      expect(notifications).toHaveLength(2);
      for (const email of parsed) {
        for (const header of email.headers) expect(header.key).not.toBe('bcc');
        expect(email.bcc ?? []).toEqual([]);
      }
      const decoded = [
        ...notifications.flatMap((email) => [email.subject!, email.replyTo?.[0]?.name ?? '']),
        ...sent.flatMap((body) => [body.subject ?? '', body.replyTo?.name ?? '']),
      ];
      expect(decoded.filter(Boolean).length).toBeGreaterThanOrEqual(6);
      for (const value of decoded) {
        expect(value).not.toMatch(/[\r\n]/);
        expect(value).not.toMatch(/bcc:\s*x@evil/i);
        expect(value).not.toContain('=?');
        expect(value).not.toMatch(INVISIBLE);
      }
      expect(notifications[0]!.subject).toContain('Marie');
      expect(notifications[0]!.replyTo?.[0]?.address).toBe(validContact.EMAIL);
    } finally {
      await smtp.close();
      await brevo.close();
    }
  });
});

interface SentByBrevo {
  subject?: string;
  replyTo?: { name?: string };
}
