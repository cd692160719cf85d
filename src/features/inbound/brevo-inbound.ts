import { convert } from 'html-to-text';
import { Type, type Static } from 'typebox';
import type { AddressEvent } from './inbound-journal.ts';
import type { AddressReport, ReceivedMail } from './received-mail.ts';
import { messageIds } from './received-mail.ts';

const Text = Type.Optional(Type.Union([Type.String(), Type.Null()]));
const Mailbox = Type.Object({ Address: Type.Optional(Type.String()), Name: Text });

/**
 * Brevo's « Inbound parsing » webhook (docs/inbound.md): `items[]`, one per e-mail received on the
 * agency's inbound domain. Only what leadgate reads is described; Brevo's other fields pass.
 */
export const BrevoInboundSchema = Type.Object({
  items: Type.Array(
    Type.Object({
      MessageId: Text,
      InReplyTo: Text,
      From: Type.Optional(Mailbox),
      Subject: Text,
      RawTextBody: Text,
      RawHtmlBody: Text,
      ExtractedMarkdownMessage: Text,
      Attachments: Type.Optional(
        Type.Array(
          Type.Object({
            Name: Text,
            ContentType: Text,
            ContentLength: Type.Optional(Type.Number()),
          }),
        ),
      ),
      Headers: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    }),
    { maxItems: 100 },
  ),
});
export type BrevoInbound = Static<typeof BrevoInboundSchema>;

/** Brevo's transactional webhook event (one, or a batch when the webhook is set to batch them). */
const BrevoEvent = Type.Object({
  event: Type.String(),
  email: Type.String(),
  reason: Text,
  'message-id': Text,
});
export const BrevoEventsSchema = Type.Union([
  BrevoEvent,
  Type.Array(BrevoEvent, { maxItems: 1000 }),
]);
export type BrevoEvents = Static<typeof BrevoEventsSchema>;

/** docs/inbound.md, « Rebonds et plaintes »: Brevo's events and what each says of the address. */
const BREVO_EVENTS: Record<string, AddressEvent | 'unsubscribed'> = {
  hard_bounce: 'hard',
  invalid_email: 'hard',
  blocked: 'hard',
  soft_bounce: 'soft',
  spam: 'complaint',
  unsubscribed: 'unsubscribed',
};

export function brevoMails(payload: BrevoInbound): ReceivedMail[] {
  return payload.items.map((item) => {
    const header = (name: string) => {
      const found = Object.entries(item.Headers ?? {}).find(
        ([key]) => key.toLowerCase() === name.toLowerCase(),
      )?.[1];
      return typeof found === 'string' || Array.isArray(found)
        ? (found as string | string[])
        : undefined;
    };
    return {
      source: 'brevo',
      from: item.From?.Address,
      messageId: item.MessageId ?? undefined,
      answers: messageIds(item.InReplyTo ?? undefined, header('References')).reverse(),
      subject: item.Subject ?? '',
      // HTML is never kept: its text only (html-to-text, as mailparser does for the raw route).
      text:
        item.RawTextBody ??
        (item.RawHtmlBody ? convert(item.RawHtmlBody) : (item.ExtractedMarkdownMessage ?? '')),
      attachments: (item.Attachments ?? []).map((attachment) => ({
        name: attachment.Name ?? 'sans nom',
        size: attachment.ContentLength ?? 0,
        type: attachment.ContentType ?? 'application/octet-stream',
      })),
    };
  });
}

/** The events about an address; the others (delivered, opened, clicked…) are ignored. */
export function brevoReports(payload: BrevoEvents): AddressReport[] {
  const events = Array.isArray(payload) ? payload : [payload];
  return events.flatMap((event): AddressReport[] => {
    const said = BREVO_EVENTS[event.event];
    if (!said) return [];
    return [{ address: event.email, event: said, reason: event.reason ?? event.event }];
  });
}
