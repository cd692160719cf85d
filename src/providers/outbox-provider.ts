import { rename as renameFile, writeFile as writeWholeFile } from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { ProviderMailSettings } from './mail-destinations.ts';
import { MimeMailProvider } from './mime-mail-provider.ts';

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
      const file = join(directory, `${day}-${ref.id}-${role}.eml`);
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

/** Deletes the `.eml` files of these leads (named `<day>-<lead id>-<role>.eml`); says how many. */
async function eraseMessages(directory: string, leadIds: readonly string[]): Promise<number> {
  const names = await readdir(directory).catch(() => [] as string[]);
  const doomed = names.filter((name) => leadIds.some((id) => name.includes(`-${id}-`)));
  await Promise.all(doomed.map((name) => rm(join(directory, name), { force: true })));
  return doomed.length;
}
