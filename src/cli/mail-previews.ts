import { emailOf } from '../kernel/lead/lead.ts';
import { consentRecord } from '../kernel/lead/consent.ts';
import type { Lead } from '../kernel/lead/lead.ts';
import type { ConsentChannel } from '../kernel/schemas/consent.ts';
import { AUDIT_EXAMPLE, CONTACT_EXAMPLE, SUBSCRIBE_EXAMPLE } from '../kernel/schemas/examples.ts';
import type { LeadRequest } from '../kernel/schemas/lead-kinds.ts';
import {
  LINK_TOKEN_PARAMETER,
  NEWSLETTER_CONFIRM_PATH,
  NEWSLETTER_UNSUBSCRIBE_PATH,
} from '../kernel/schemas/newsletter-pages.ts';
import { QUESTIONNAIRES } from '../kernel/schemas/questionnaires.ts';
import { confirmationEmail } from '../features/intake/confirmation-email.ts';
import { doubleOptInEmail } from '../features/newsletter/double-opt-in-email.ts';
import { senderOf, type MailMessage, type MailSettings } from '../kernel/mail/mail-message.ts';
import { composeMime } from '../kernel/mail/mime-message.ts';
import { agencyNotification } from '../features/intake/notification-email.ts';
import { teamSummaryEmail, type TeamSummaryFacts } from '../features/inbox/team-summary-email.ts';

/** What `leadgate mail preview` can show (docs/emails.md). */
export const PREVIEWS = [
  'contact',
  'subscribe',
  'audit',
  'opt-in',
  'notification',
  'summary',
] as const;
export type PreviewName = (typeof PREVIEWS)[number];

export interface MailPreview {
  /** The file name without extension: `contact-confirmation`, `audit-notification`… */
  name: string;
  message: MailMessage;
  /** The message as the outbox writes it (RFC 5322, CRLF). */
  eml: Buffer;
}

/** A fixed time, so two previews of the same identity are the same files. */
const RECEIVED = new Date('2026-11-26T05:48:00Z');

function sampleLead(
  id: string,
  request: LeadRequest,
  channel: ConsentChannel,
  page?: string,
): Lead {
  const { record } = consentRecord(request.kind, { channel, page }, RECEIVED);
  return { ...request, id, receivedAt: RECEIVED, consent: record };
}

/** The sample leads: the API's examples, the phone and an off-questionnaire answer added. */
const LEADS = {
  contact: sampleLead(
    '01KAXF3M7Q2R8S9T0V1W2X3Y4Z',
    { kind: 'contact', data: { ...CONTACT_EXAMPLE, SMS: '612345678', SMS__COUNTRY_CODE: '+33' } },
    'form',
    '/contact',
  ),
  subscribe: sampleLead(
    '01KAXF3M7Q2R8S9T0V1W2X3Y50',
    { kind: 'subscribe', data: { ...SUBSCRIBE_EXAMPLE, source: 'site:/newsletter' } },
    'form',
    '/newsletter',
  ),
  audit: sampleLead(
    '01KAXF3M7Q2R8S9T0V1W2X3Y51',
    {
      kind: 'audit',
      data: {
        ...AUDIT_EXAMPLE,
        phone: '06 12 34 56 78',
        formData: {
          ...AUDIT_EXAMPLE.formData,
          [QUESTIONNAIRES.btp[2]!.question]: 'Oui',
          'Travaillez-vous le samedi ?': 'Oui, sur rendez-vous',
        },
      },
    },
    'mcp',
  ),
};

function optIn(lead: Lead, settings: MailSettings): MailMessage {
  const link = (path: string) => `${settings.siteUrl}${path}?${LINK_TOKEN_PARAMETER}=exemple`;
  return doubleOptInEmail(lead, settings, {
    confirmUrl: link(NEWSLETTER_CONFIRM_PATH),
    unsubscribeUrl: link(NEWSLETTER_UNSUBSCRIBE_PATH),
  });
}

/** What names an e-mail for good: a lead, or the team's summary of a day. */
type Entry = [file: string, ref: Pick<Lead, 'id' | 'receivedAt'>, message: MailMessage];

/** The team's daily summary of RECEIVED's day: one lead late, two to answer, three held. */
function summaryFacts(): TeamSummaryFacts {
  const hour = 3_600_000;
  const waiting = (lead: Lead, name: string, topic: string, dueInHours: number) => ({
    id: lead.id,
    name,
    email: emailOf(lead),
    kind: lead.kind === 'audit' ? 'Audit' : 'Contact',
    topic,
    receivedAt: new Date(RECEIVED.getTime() - 30 * hour),
    dueAt: new Date(RECEIVED.getTime() + dueInHours * hour),
    leftMs: Math.max(0, dueInHours * hour),
  });
  return {
    at: RECEIVED,
    waiting: [
      waiting(LEADS.contact, 'Marie Dupont', 'Référencement local', -2),
      waiting(LEADS.audit, 'Marie Dupont', 'Artisans et entreprises du BTP', 7),
    ],
    toSee: [
      {
        id: LEADS.subscribe.id,
        name: 'Léa Martin',
        kind: 'Contact',
        lines: ['Nouveau message du prospect', 'Boîte pleine : appelez plutôt au 06 12 34 56 78'],
      },
    ],
    waitingTotal: 2,
    overdue: 1,
    held: 3,
    heldTooFast: 1,
    minutesAfterMidnight: 8 * 60 + 30,
  };
}

/** The e-mails `name` stands for, composed as the outbox would write them. */
export function mailPreviews(name: PreviewName, settings: MailSettings): MailPreview[] {
  const { contact, subscribe, audit } = LEADS;
  const confirmation = (lead: Lead): Entry => [
    `${lead.kind}-confirmation`,
    lead,
    confirmationEmail(lead, settings),
  ];
  const notification = (lead: Lead): Entry => [
    `${lead.kind}-notification`,
    lead,
    agencyNotification(lead, settings),
  ];
  const optInEntry = (): Entry => ['subscribe-opt-in', subscribe, optIn(subscribe, settings)];
  const messages: Entry[] = {
    contact: () => [confirmation(contact), notification(contact)],
    subscribe: () => [optInEntry(), notification(subscribe)],
    audit: () => [notification(audit)],
    'opt-in': () => [optInEntry()],
    notification: () => [contact, subscribe, audit].map(notification),
    summary: (): Entry[] => [
      [
        'team-summary',
        { id: 'team-summary-2026-11-26', receivedAt: RECEIVED },
        teamSummaryEmail(summaryFacts(), settings),
      ],
    ],
  }[name]();
  const from = senderOf(settings);
  const host = new URL(settings.siteUrl).hostname;
  return messages.map(([file, ref, message]) => ({
    name: file,
    message,
    eml: composeMime(message, {
      from,
      messageId: `<${ref.id}.${message.role}@${host}>`,
      date: ref.receivedAt,
    }),
  }));
}
