import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import PostalMime, { type Email } from 'postal-mime';

/**
 * The outbox's messages (`<day>-<lead id>-<role>.eml`, src/providers/outbox/), of one role or all,
 * parsed as a mail client would, in file-name order: what a person or the team receives.
 */
export async function outboxMails(dataDir: string, role?: string): Promise<Email[]> {
  const directory = join(dataDir, 'outbox');
  const names = readdirSync(directory).filter((name) =>
    name.endsWith(role === undefined ? '.eml' : `-${role}.eml`),
  );
  return Promise.all(
    names.sort().map((name) => PostalMime.parse(readFileSync(join(directory, name)))),
  );
}
