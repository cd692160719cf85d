import type { Transporter } from 'nodemailer';
import type { ClaimedStep } from '../domain/deliveries.ts';
import type { Destination } from '../domain/destination.ts';
import { RefusedError, UpstreamError } from '../domain/errors.ts';
import type { Provider } from '../domain/provider.ts';
import type { MailMessage, MailSettings } from '../mail/mail-message.ts';
import { mailDestinations, sendDeadLetterAlert, type SendMail } from './mail-destinations.ts';

/** What a nodemailer transport answered for one message; the outbox keeps the raw bytes. */
export interface SentMessage {
  message: MailMessage;
  messageId: string;
  raw?: Buffer;
}

/**
 * RFC 5321 4.2.2: 550 mailbox unavailable, 551 user not local, 553 mailbox name not allowed. The
 * same message to the same address would be refused again; other codes may pass later.
 */
const REFUSED_FOR_GOOD = new Set([550, 551, 553]);

/**
 * Sends a lead's e-mails through any nodemailer transport: SMTP for real, a stream transport for the
 * outbox. `afterSend` lets the outbox keep each message as a file.
 */
export class NodemailerProvider implements Provider {
  readonly destinations: readonly Destination[];

  constructor(
    readonly name: string,
    private readonly transport: Transporter,
    private readonly settings: MailSettings & { from: string },
    private readonly afterSend: (
      ref: { id: string; receivedAt: Date },
      sent: SentMessage,
    ) => Promise<void> = async () => {},
    /** Erases the copies this transport keeps of the leads' messages (the outbox's files). */
    private readonly eraseCopies?: (leadIds: readonly string[]) => Promise<number>,
  ) {
    this.destinations = mailDestinations(name, settings, this.send);
  }

  /** An SMTP server keeps nothing leadgate could ask to erase; the outbox deletes its own files. */
  async forget(_address: string, leadIds: readonly string[]): Promise<string> {
    if (!this.eraseCopies) return `${this.name} : rien à demander au serveur d’envoi.`;
    const files = await this.eraseCopies(leadIds);
    return `${this.name} : ${files} message(s) conservé(s) supprimé(s).`;
  }

  alertAgency(dead: readonly ClaimedStep[], signal: AbortSignal): Promise<void> {
    return sendDeadLetterAlert(this.send, this.settings, dead, signal);
  }

  private readonly send: SendMail = async (message, ref, signal) => {
    signal.throwIfAborted();
    const messageId = `<${ref.id}.${message.role}@${new URL(this.settings.siteUrl).hostname}>`;
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
      const code = (error as { responseCode?: unknown }).responseCode;
      const Failure =
        typeof code === 'number' && REFUSED_FOR_GOOD.has(code) ? RefusedError : UpstreamError;
      throw new Failure(`${this.name} refused the ${message.role} e-mail`, { cause: error });
    }
    await this.afterSend(ref, {
      message,
      messageId,
      raw: Buffer.isBuffer(info.message) ? info.message : undefined,
    });
    return messageId;
  };

  async close(): Promise<void> {
    this.transport.close();
  }
}
