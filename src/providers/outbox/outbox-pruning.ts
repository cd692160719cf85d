import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * docs/operations.md: the outbox keeps a copy of every e-mail (`<day>-<lead id>-<role>.eml`); it
 * follows the journal's retention, so a purged lead leaves no message behind. A message is written
 * when its lead is received (or replayed, later), never before: one older than `receivedBefore`
 * belongs to a lead the journal purge forgets. A missing folder (another provider) is nothing to
 * prune. Says how many files went.
 */
export async function pruneOutbox(directory: string, receivedBefore: Date): Promise<number> {
  let names: string[];
  try {
    names = await readdir(directory);
  } catch {
    return 0;
  }
  let pruned = 0;
  for (const name of names.filter((candidate) => candidate.endsWith('.eml'))) {
    const file = join(directory, name);
    if ((await stat(file)).mtime < receivedBefore) {
      await rm(file, { force: true });
      pruned += 1;
    }
  }
  return pruned;
}
