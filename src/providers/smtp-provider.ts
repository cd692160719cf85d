import nodemailer from 'nodemailer';
import type { MailSettings } from '../mail/mail-message.ts';
import { NodemailerProvider } from './nodemailer-provider.ts';

export function createSmtpProvider(
  smtpUrl: string,
  settings: MailSettings & { from: string },
  timeoutMs: number,
) {
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });
  return new NodemailerProvider('smtp', transport, settings);
}
