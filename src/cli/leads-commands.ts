import { frenchDateTime, frenchNumericDateTime } from '../kernel/lead/french-date.ts';
import { join } from 'node:path';
import { InvalidConfigError, type Config } from '../kernel/config.ts';
import { maskText } from '../kernel/lead/masking.ts';
import { once } from 'node:events';
import { summary } from '../features/inbox/lead-table.ts';
import { excelContext, exportChunks, type ExportFormat } from '../features/inbox/lead-export.ts';
import { pruneOutbox } from '../providers/outbox/outbox-pruning.ts';
import { assertJournalExists, createStore, MissingJournalError } from '../wiring/create-store.ts';
import type { LeadStatus } from '../kernel/lead/lead-status.ts';
import type { JournalEntry, Store } from '../kernel/journal/store.ts';

export async function withStore<T>(config: Config, task: (store: Store) => Promise<T>): Promise<T> {
  const store = await createStore(config);
  try {
    return await task(store);
  } finally {
    await store.close();
  }
}

/**
 * For commands that only read: a mistyped DATA_DIR must not create an empty journal and answer
 * "Aucune demande" as if nothing had been received.
 */
export async function withExistingStore<T>(
  config: Config,
  task: (store: Store) => Promise<T>,
): Promise<T> {
  try {
    assertJournalExists(config);
  } catch (error) {
    if (!(error instanceof MissingJournalError)) throw error;
    throw new InvalidConfigError(
      `DATA_DIR "${config.dataDir}" holds no journal (${error.message})`,
    );
  }
  return withStore(config, task);
}

/** Rows journaled before errors were masked at write time are masked as they are shown. */
function maskedErrors(entries: JournalEntry[], secrets: readonly string[]): JournalEntry[] {
  return entries.map((entry) =>
    entry.lastError === null ? entry : { ...entry, lastError: maskText(entry.lastError, secrets) },
  );
}

export async function listLeads(
  config: Config,
  out: NodeJS.WritableStream,
  status?: LeadStatus,
): Promise<void> {
  const entries = await withExistingStore(config, (store) =>
    store.list(status ? { statuses: [status] } : undefined),
  );
  if (entries.length === 0) {
    out.write(status ? `Aucune demande « ${status} ».\n` : 'Aucune demande dans le journal.\n');
    return;
  }
  for (const journaled of maskedErrors(entries, config.secrets)) {
    const entry = summary(journaled);
    // The last error tells an operator why a lead waits, without opening the database.
    const error = entry.lastError ? `  ${entry.lastError.replace(/\s+/g, ' ')}` : '';
    out.write(
      `${frenchNumericDateTime(journaled.lead.receivedAt)}  ${entry.kind.padEnd(9)}  ${entry.status.padEnd(9)}  ${String(entry.attempts).padStart(2)}  ${entry.email}  ${entry.id}${error}\n`,
    );
  }
}

/**
 * Every lead, held ones too, oldest first, streamed (docs/performance.md, « Exports »): written as read, a page
 * at a time, waiting for `out` to drain.
 */
export async function exportLeads(
  config: Config,
  format: ExportFormat,
  out: NodeJS.WritableStream,
): Promise<void> {
  await withExistingStore(config, async (store) => {
    async function* everyLead() {
      for await (const entry of store.work.all({ held: 'also' }, 'due')) {
        // Rows journaled before errors were masked at write time are masked as they are shown.
        yield entry.lastError === null
          ? entry
          : { ...entry, lastError: maskText(entry.lastError, config.secrets) };
      }
    }
    const chunks = exportChunks(
      format,
      everyLead(),
      await excelContext(store, config.workspace.businessHours),
    );
    for await (const chunk of chunks) {
      if (!out.write(chunk)) await once(out, 'drain');
    }
  });
}

/** Retention (see /politique-de-confidentialite): forgets the leads received more than `days` ago. */
export async function purgeLeads(
  config: Config,
  days: number,
  out: NodeJS.WritableStream,
): Promise<number> {
  const before = new Date(Date.now() - days * 24 * 60 * 60 * 1000);
  const deleted = await withStore(config, (store) => store.purgeReceivedBefore(before));
  const messages = await pruneOutbox(join(config.dataDir, 'outbox'), before);
  out.write(
    `${deleted} demande(s) reçue(s) avant le ${frenchDateTime(before)} (heure de Paris) supprimée(s), ${messages} e-mail(s) de la boîte d’envoi.\n`,
  );
  return deleted;
}
