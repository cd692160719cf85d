import type { Transporter } from 'nodemailer';
import type { Lead } from '../domain/lead.ts';
import { UpstreamError } from '../domain/errors.ts';
import type { MailMessage, MailSettings } from '../mail/mail-message.ts';
import { messagesFor } from '../mail/messages.ts';
import type { DeliveryReceipt, HandoffLedger, Provider } from './provider.ts';

/** What a nodemailer transport answered for one message; the outbox keeps the raw bytes. */
export interface SentMessage {
  message: MailMessage;
  messageId: string;
  raw?: Buffer;
}

/**
 * Sends a lead's e-mails through any nodemailer transport: SMTP for real, a stream transport for the
 * outbox. `afterSend` lets the outbox keep each message as a file.
 */
export class NodemailerProvider implements Provider {
  constructor(
    readonly name: string,
    private readonly transport: Transporter,
    private readonly settings: MailSettings & { from: string },
    private readonly afterSend: (lead: Lead, sent: SentMessage) => Promise<void> = async () => {},
  ) {}

  async deliver(
    lead: Lead,
    signal: AbortSignal,
    handoffs?: HandoffLedger,
  ): Promise<DeliveryReceipt> {
    const ids: string[] = [];
    const messages = messagesFor(lead, this.settings);
    for (const [index, message] of messages.entries()) {
      signal.throwIfAborted();
      const messageId = `<${lead.id}.${message.role}@${new URL(this.settings.siteUrl).hostname}>`;
      if (handoffs?.done.has(message.role)) {
        ids.push(`${messageId} (déjà remis)`);
        continue;
      }
      let info;
      try {
        info = await this.transport.sendMail({
          from: this.settings.from,
          to: message.to,
          replyTo: message.replyTo,
          subject: message.subject,
          text: message.text,
          html: message.html,
          messageId,
        });
      } catch (error) {
        throw new UpstreamError(`${this.name} refused the ${message.role} e-mail`, {
          cause: error,
        });
      }
      await this.afterSend(lead, {
        message,
        messageId,
        raw: Buffer.isBuffer(info.message) ? info.message : undefined,
      });
      // The last message needs no record (one durable write less per lead): the journal's
      // `delivered`, written next, already says it went out.
      if (index < messages.length - 1) await handoffs?.record(message.role);
      ids.push(messageId);
    }
    return { detail: `${this.name}: ${ids.join(' ')}` };
  }

  async close(): Promise<void> {
    this.transport.close();
  }
}
