import { rename as renameFile, writeFile as writeWholeFile } from 'node:fs';
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { MailMessage } from '../../kernel/mail/mail-message.ts';
import { MENTIONS_HEADER } from '../../kernel/mail/mime-message.ts';
import type { ProviderMailSettings } from '../mail-destinations.ts';
import { MimeMailProvider } from '../mime-mail-provider.ts';

// The callback API, promisified: no FileHandle object and promise chain per call as in
// fs/promises, about half the event loop's time per message (docs/performance.md, "The delivery path").
const writeFile = promisify(writeWholeFile);
const rename = promisify(renameFile);

/**
 * The default provider: no account, no server. Each e-mail is composed exactly as SMTP would send it
 * and kept as an RFC 5322 `.eml` file that any mail client opens.
 */
export function createOutboxProvider(directory: string, settings: ProviderMailSettings) {
  return new MimeMailProvider(
    'outbox',
    settings,
    async ({ raw, ref, role }) => {
      const day = ref.receivedAt.toISOString().slice(0, 10);
      // The team's summary is named by its day alone (`2026-11-27-team-summary.eml`).
      const file = join(directory, `${day}-${ref.id === day ? '' : `${ref.id}-`}${role}.eml`);
      // Write then rename, so a reader never sees half a message; a replay rewrites the same file.
      await writeFile(`${file}.tmp`, raw).catch(async (error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
        // The folder is made when a message finds it missing (the first, or after someone removed
        // it), not before each message: one system call less per e-mail.
        await mkdir(directory, { recursive: true });
        await writeFile(`${file}.tmp`, raw);
      });
      await rename(`${file}.tmp`, file);
    },
    { eraseCopies: (leadIds) => eraseMessages(directory, leadIds), reachedThrough: 'DATA_DIR' },
  );
}

/**
 * Deletes the `.eml` files of these leads (named `<day>-<lead id>-<role>.eml`), and the team's
 * summaries that name one of them (their MENTIONS_HEADER); says how many.
 */
async function eraseMessages(directory: string, leadIds: readonly string[]): Promise<number> {
  const names = await readdir(directory).catch(() => [] as string[]);
  const own = names.filter((name) => leadIds.some((id) => name.includes(`-${id}-`)));
  const summaries = names.filter((name) => name.endsWith(`-${SUMMARY_ROLE}.eml`));
  const naming = await Promise.all(
    summaries.map(async (name) => {
      const mentioned = mentionsOf(await readFile(join(directory, name), 'utf8').catch(() => ''));
      return leadIds.some((id) => mentioned.has(id)) ? [name] : [];
    }),
  );
  const doomed = [...new Set([...own, ...naming.flat()])];
  await Promise.all(doomed.map((name) => rm(join(directory, name), { force: true })));
  return doomed.length;
}

const SUMMARY_ROLE: MailMessage['role'] = 'team-summary';

/** The lead ids of a message's MENTIONS_HEADER (its folded lines joined), from its head only. */
function mentionsOf(raw: string): Set<string> {
  const end = raw.indexOf('\r\n\r\n');
  const head = (end === -1 ? raw : raw.slice(0, end)).replace(/\r\n[ \t]/g, ' ');
  const line = head.split('\r\n').find((text) => text.startsWith(`${MENTIONS_HEADER}:`));
  return new Set(
    line
      ?.slice(MENTIONS_HEADER.length + 1)
      .trim()
      .split(/\s+/) ?? [],
  );
}
