import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { MailSettings } from '../mail/mail-message.ts';
import { NodemailerProvider } from './nodemailer-provider.ts';

/**
 * The default provider: no account, no server. Each e-mail is composed by nodemailer exactly as SMTP
 * would send it and kept as an RFC 5322 `.eml` file that any mail client opens.
 */
export function createOutboxProvider(directory: string, settings: MailSettings & { from: string }) {
  const transport = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'windows',
  });
  return new NodemailerProvider(
    'outbox',
    transport,
    settings,
    async (ref, sent) => {
      if (!sent.raw) throw new Error('the stream transport returned no message');
      await mkdir(directory, { recursive: true });
      const day = ref.receivedAt.toISOString().slice(0, 10);
      const file = join(directory, `${day}-${ref.id}-${sent.message.role}.eml`);
      // Write then rename, so a reader never sees half a message; a replay rewrites the same file.
      await writeFile(`${file}.tmp`, sent.raw);
      await rename(`${file}.tmp`, file);
    },
    (leadIds) => eraseMessages(directory, leadIds),
  );
}

/** Deletes the `.eml` files of these leads (named `<day>-<lead id>-<role>.eml`); says how many. */
async function eraseMessages(directory: string, leadIds: readonly string[]): Promise<number> {
  const names = await readdir(directory).catch(() => [] as string[]);
  const doomed = names.filter((name) => leadIds.some((id) => name.includes(`-${id}-`)));
  await Promise.all(doomed.map((name) => rm(join(directory, name), { force: true })));
  return doomed.length;
}
