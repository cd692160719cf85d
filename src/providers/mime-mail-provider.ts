import type { AgencyAlert } from '../features/delivery/alerts.ts';
import type { Destination } from '../kernel/lead/destination.ts';
import type { Provider } from '../features/delivery/provider.ts';
import { senderOf, type MailMessage } from '../kernel/mail/mail-message.ts';
import { composeMime } from '../kernel/mail/mime-message.ts';
import {
  mailDestinations,
  sendAlertEmail,
  type ProviderMailSettings,
  type SendMail,
} from './mail-destinations.ts';

/** One e-mail ready to leave: its bytes, its SMTP envelope, the lead (or alert) and role it is for. */
export interface ComposedMail {
  raw: Buffer;
  envelope: { from: string; to: string };
  ref: { id: string; receivedAt: Date };
  role: MailMessage['role'];
}

export interface MimeMailOptions {
  /** Erases the copies kept of these leads' messages (the outbox's files); says how many. */
  eraseCopies?: (leadIds: readonly string[]) => Promise<number>;
  close?: () => Promise<void>;
  /** Provider.verify: the connection and sign-in, without sending. */
  verify?: (signal: AbortSignal) => Promise<string | undefined>;
  /** The setting that says where the e-mails go (Destination.reachedThrough). */
  reachedThrough?: string;
}

/**
 * Sends a lead's e-mails as RFC 5322 messages composed here (src/kernel/mail/mime-message.ts), each
 * handed over by `handOver`: to an SMTP server, or into the outbox's directory.
 */
export class MimeMailProvider implements Provider {
  readonly destinations: readonly Destination[];
  private readonly host;

  constructor(
    readonly name: string,
    private readonly settings: ProviderMailSettings,
    private readonly handOver: (mail: ComposedMail, signal: AbortSignal) => Promise<void>,
    private readonly options: MimeMailOptions = {},
  ) {
    this.host = new URL(settings.siteUrl).hostname;
    this.destinations = mailDestinations(name, settings, this.send, options.reachedThrough);
  }

  /** An SMTP server keeps nothing leadgate could ask to erase; the outbox deletes its own files. */
  async forget(_address: string, leadIds: readonly string[]): Promise<string> {
    if (!this.options.eraseCopies) return `${this.name} : rien à demander au serveur d’envoi.`;
    const files = await this.options.eraseCopies(leadIds);
    return `${this.name} : ${files} message(s) conservé(s) supprimé(s).`;
  }

  sendMail(message: MailMessage, ref: { id: string; receivedAt: Date }, signal: AbortSignal) {
    return this.send(message, ref, signal);
  }

  alertAgency(alert: AgencyAlert, signal: AbortSignal): Promise<void> {
    return sendAlertEmail(this.send, this.settings, alert, signal);
  }

  /** The Message-ID derives from the ref and role: a replay sends the same message again. */
  private readonly send: SendMail = async (message, ref, signal) => {
    signal.throwIfAborted();
    const messageId = `<${ref.id}.${message.role}@${this.host}>`;
    const from = senderOf(this.settings, message);
    const raw = composeMime(message, { from, messageId, date: new Date() });
    const envelope = { from: from.address, to: message.to.address };
    await this.handOver({ raw, envelope, ref, role: message.role }, signal);
    return messageId;
  };

  async verify(signal: AbortSignal): Promise<string | undefined> {
    return this.options.verify?.(signal);
  }

  async close(): Promise<void> {
    await this.options.close?.();
  }
}
