import { createHash, randomUUID } from 'node:crypto';
import type { Store } from '../../kernel/journal/store.ts';
import type { InboundMessage, MatchedBy } from './inbound-journal.ts';
import type { AddressReport, ReceivedMail } from './received-mail.ts';
import { splitReply } from './received-mail.ts';

/** docs/inbound.md, « Rebonds et plaintes »: « Boîte pleine » after this many soft bounces. */
export const SOFT_BOUNCE_REPEATS = 3;

/** The opt-out list's reasons (src/features/newsletter/opt-out-routes.ts) for what Brevo reports. */
const OPT_OUT_REASON = { complaint: 'plainte-spam', unsubscribed: 'desinscription' } as const;

export interface InboundDependencies {
  store: Store;
  now: () => Date;
}

/**
 * docs/inbound.md, « Rattachement »: a message goes to the lead whose e-mail it answers
 * (In-Reply-To, References), else to the latest lead of its sender's address, else it waits in
 * « À vérifier » with the reason. A provider's retry of a message (same Message-ID) is kept once.
 */
export async function receiveMail(
  mail: ReceivedMail,
  { store, now }: InboundDependencies,
): Promise<Pick<InboundMessage, 'id' | 'leadId' | 'matchedBy'>> {
  let leadId = await store.inbound.leadOfSentMessage(mail.answers);
  let matchedBy: MatchedBy | null = leadId ? 'header' : null;
  if (!leadId && mail.from) {
    leadId = await store.inbound.latestLeadOf(mail.from);
    if (leadId) matchedBy = 'address';
  }
  const reviewReason = leadId
    ? null
    : !mail.from
      ? 'Expéditeur illisible.'
      : mail.answers.length
        ? 'Répond à un e-mail que le journal ne connaît pas, et aucune demande ne vient de cette adresse.'
        : 'Aucune demande ne vient de cette adresse, et le message ne répond à aucun de nos e-mails.';
  const id = mail.messageId
    ? createHash('sha256').update(`${mail.source}\n${mail.messageId}`).digest('hex').slice(0, 32)
    : randomUUID();
  const { body, quoted } = splitReply(mail.text);
  await store.inbound.add({
    id,
    leadId: leadId ?? null,
    from: mail.from ?? '',
    receivedAt: now(),
    source: mail.source,
    messageId: mail.messageId ?? null,
    subject: mail.subject.slice(0, 998),
    body,
    quoted,
    attachments: mail.attachments.slice(0, 100),
    matchedBy,
    reviewReason,
  });
  return { id, leadId: leadId ?? null, matchedBy };
}

/**
 * docs/inbound.md, « Rebonds et plaintes »: marks the address of a lead; a complaint or an
 * unsubscription also puts it on the opt-out list. An address no lead has is not recorded (we
 * keep nothing of people who never wrote to us).
 */
export async function receiveReport(
  report: AddressReport,
  { store, now }: InboundDependencies,
): Promise<boolean> {
  if (!(await store.inbound.latestLeadOf(report.address))) return false;
  if (report.event !== 'unsubscribed') {
    await store.inbound.flag(
      report.address,
      report.event,
      report.reason,
      now(),
      SOFT_BOUNCE_REPEATS,
    );
  }
  if (report.event === 'complaint' || report.event === 'unsubscribed') {
    await store.optOut.add(report.address, {
      addedAt: now(),
      addedBy: 'Brevo',
      reason: OPT_OUT_REASON[report.event],
    });
  }
  return true;
}
