import { performance } from 'node:perf_hooks';
import nodemailer from 'nodemailer';
import type { Lead } from '../src/kernel/lead/lead.ts';
import { confirmationEmail } from '../src/features/intake/confirmation-email.ts';
import {
  parseMailbox,
  type MailMessage,
  type MailSettings,
} from '../src/kernel/mail/mail-message.ts';
import { composeMime } from '../src/kernel/mail/mime-message.ts';
import { agencyNotification } from '../src/features/intake/notification-email.ts';
import { CONTACT_BODY } from './contact.ts';
import { mailIdentity } from '../src/features/site/mail-identity.ts';

/** Microseconds of CPU (user + system) and of wall time per message composed. */
export interface ComposeCost {
  cpuMicros: number;
  wallMicros: number;
}

export interface MailComposeRound {
  leadgate: ComposeCost;
  nodemailer: ComposeCost;
}

const SETTINGS: MailSettings = {
  from: 'Agence <bonjour@agence.example>',
  agencyEmail: 'equipe@agence.example',
  siteUrl: 'https://agence.example',
  identity: mailIdentity(),
};

/** The two e-mails of the benchmark's contact lead (bench/contact.ts): confirmation, notification. */
function contactMessages(): MailMessage[] {
  const lead = {
    kind: 'contact',
    id: '01JD5X2Q7R8S9T0V1W2X3Y4Z5A',
    receivedAt: new Date('2026-11-23T12:00:00Z'),
    data: JSON.parse(CONTACT_BODY.replace('[<id>]', '1')),
  } as Lead;
  return [confirmationEmail(lead, SETTINGS), agencyNotification(lead, SETTINGS)];
}

async function measure(count: number, compose: (message: MailMessage) => unknown) {
  const messages = contactMessages();
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let index = 0; index < count; index++) await compose(messages[index % messages.length]!);
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { cpuMicros: (used.user + used.system) / count, wallMicros: (wall * 1000) / count };
}

/**
 * One round: the same two messages composed by leadgate (src/kernel/mail/mime-message.ts) and by
 * nodemailer as the outbox used it before (a stream transport, CRLF line breaks, the whole message
 * buffered).
 */
export async function mailComposeRound(count: number): Promise<MailComposeRound> {
  const sender = parseMailbox(SETTINGS.from);
  const leadgate = (message: MailMessage) =>
    composeMime(message, {
      from: sender,
      messageId: `<bench.${message.role}@agence.example>`,
      date: new Date(),
    });
  const transport = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'windows',
  });
  const viaNodemailer = (message: MailMessage) =>
    transport.sendMail({
      from: SETTINGS.from,
      to: message.to,
      replyTo: message.replyTo,
      subject: message.subject,
      text: message.text,
      html: message.html,
      messageId: `<bench.${message.role}@agence.example>`,
    });
  // Warm-up: both paths compiled by V8 before anything is timed.
  await measure(count / 10, leadgate);
  await measure(count / 100, viaNodemailer);
  return {
    leadgate: await measure(count, leadgate),
    // nodemailer is about ten times slower: fewer messages keep the round short.
    nodemailer: await measure(count / 10, viaNodemailer),
  };
}
