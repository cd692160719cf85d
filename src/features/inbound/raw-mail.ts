import { simpleParser, type AddressObject } from 'mailparser';
import type { AddressReport, ReceivedMail } from './received-mail.ts';
import { messageIds } from './received-mail.ts';

/**
 * An RFC 5322 message from an MTA pipe or another provider (docs/inbound.md, « Le message brut »),
 * parsed by mailparser: a prospect's message, or a delivery status notification (RFC 3464
 * `multipart/report; report-type=delivery-status`) whose failed recipients are reported.
 */
export async function parseRawMail(
  raw: Buffer,
): Promise<{ mail: ReceivedMail } | { reports: AddressReport[] }> {
  const parsed = await simpleParser(raw, { skipHtmlToText: false, skipTextToHtml: true });
  const type = parsed.headers.get('content-type') as
    { value?: string; params?: Record<string, string> } | undefined;
  if (
    type?.value?.toLowerCase() === 'multipart/report' &&
    type.params?.['report-type']?.toLowerCase() === 'delivery-status'
  ) {
    return { reports: deliveryReports(parsed.text ?? '') };
  }
  const from = firstAddress(parsed.from);
  return {
    mail: {
      source: 'raw',
      from,
      messageId: parsed.messageId,
      answers: messageIds(parsed.inReplyTo, parsed.references).reverse(),
      subject: parsed.subject ?? '',
      text: parsed.text ?? '',
      attachments: parsed.attachments.map((attachment) => ({
        name: attachment.filename ?? 'sans nom',
        size: attachment.size,
        type: attachment.contentType,
      })),
    },
  };
}

function firstAddress(value: AddressObject | AddressObject[] | undefined): string | undefined {
  const list = Array.isArray(value) ? value : value ? [value] : [];
  return list.flatMap((object) => object.value).find((entry) => entry.address)?.address;
}

/**
 * RFC 3464 §2.3: one block of fields per recipient. `Action: failed` with a 5.x.x status is a hard
 * bounce, except X.2.2 (mailbox full, RFC 3463) which, like a 4.x.x, is a soft one; `delayed`,
 * `delivered`, `relayed` and `expanded` say nothing against the address.
 */
export function deliveryReports(text: string): AddressReport[] {
  return text.split(/\r?\n\s*\r?\n/).flatMap((block): AddressReport[] => {
    const field = (name: string) => new RegExp(`^${name}:\\s*(.+)$`, 'im').exec(block)?.[1]?.trim();
    const recipient = field('Final-Recipient')?.replace(/^rfc822\s*;\s*/i, '');
    if (!recipient || field('Action')?.toLowerCase() !== 'failed') return [];
    const status = field('Status') ?? '';
    const soft = status.startsWith('4') || /^\d\.2\.2$/.test(status);
    return [
      {
        address: recipient,
        event: soft ? 'soft' : 'hard',
        reason: field('Diagnostic-Code') ?? (status || null),
      },
    ];
  });
}
