import { stringify } from 'csv-stringify/sync';
import type { Config } from '../config.ts';
import { createIntake } from '../domain/intake.ts';
import { emailOf } from '../domain/lead.ts';
import { createProvider } from '../providers/create-provider.ts';
import { createStore } from '../store/create-store.ts';
import type { JournalEntry, ReplayLease, Store } from '../store/store.ts';

async function withStore<T>(config: Config, task: (store: Store) => Promise<T>): Promise<T> {
  const store = await createStore(config);
  try {
    return await task(store);
  } finally {
    await store.close();
  }
}

function summary(entry: JournalEntry) {
  return {
    id: entry.lead.id,
    receivedAt: entry.lead.receivedAt.toISOString(),
    kind: entry.lead.kind,
    email: emailOf(entry.lead),
    status: entry.status,
    attempts: entry.attempts,
    lastError: entry.lastError ?? '',
  };
}

export async function listLeads(config: Config, out: NodeJS.WritableStream): Promise<void> {
  const entries = await withStore(config, (store) => store.list());
  if (entries.length === 0) {
    out.write('Aucune demande dans le journal.\n');
    return;
  }
  for (const entry of entries.map(summary)) {
    out.write(
      `${entry.receivedAt}  ${entry.kind.padEnd(9)}  ${entry.status.padEnd(9)}  ${String(entry.attempts).padStart(2)}  ${entry.email}  ${entry.id}\n`,
    );
  }
}

export async function exportLeads(
  config: Config,
  format: 'csv' | 'json',
  out: NodeJS.WritableStream,
): Promise<void> {
  const entries = await withStore(config, (store) => store.list());
  const rows = entries.map((entry) => ({ ...summary(entry), payload: entry.lead.data }));
  if (format === 'json') {
    out.write(`${JSON.stringify(rows, null, 2)}\n`);
    return;
  }
  out.write(
    stringify(
      rows.map((row) => ({ ...row, payload: JSON.stringify(row.payload) })),
      { header: true },
    ),
  );
}

/**
 * Re-delivers `failed` leads, and `pending` ones old enough that no server is still delivering them
 * (a crash between the journal write and the hand-off leaves a lead pending).
 */
export async function replayLeads(
  config: Config,
  out: NodeJS.WritableStream,
): Promise<{ delivered: number; failed: number }> {
  const provider = createProvider(config);
  try {
    return await withStore(config, async (store) => {
      const intake = createIntake({ store, provider, timeoutMs: config.mail.timeoutMs });
      const staleBefore = new Date(Date.now() - 2 * config.mail.timeoutMs);
      const counts = { delivered: 0, failed: 0 };
      // Issue 5: each lead is claimed (leased) before it is re-delivered, so replays running on several
      // nodes at once share the work and never deliver one lead twice. The lease outlasts a delivery.
      const leaseMs = 2 * config.mail.timeoutMs + 60_000;
      let entry: JournalEntry | undefined;
      let after: ReplayLease['after'];
      while (
        (entry = await store.claimForReplay({
          staleBefore,
          leaseUntil: new Date(Date.now() + leaseMs),
          after,
        }))
      ) {
        after = { receivedAt: entry.lead.receivedAt, id: entry.lead.id };
        try {
          await intake.redeliver(entry);
          counts.delivered += 1;
          out.write(`livrée   ${entry.lead.id}\n`);
        } catch (error) {
          counts.failed += 1;
          out.write(`échec    ${entry.lead.id}  ${(error as Error).message}\n`);
        }
      }
      out.write(`${counts.delivered} livrée(s), ${counts.failed} en échec.\n`);
      return counts;
    });
  } finally {
    await provider.close();
  }
}

/** Retention (see /politique-de-confidentialite): forgets the leads received more than `days` ago. */
export async function purgeLeads(
  config: Config,
  days: number,
  out: NodeJS.WritableStream,
): Promise<number> {
  const before = new Date(Date.now() - days * 24 * 60 * 60 * 1000);
  const deleted = await withStore(config, (store) => store.purgeReceivedBefore(before));
  out.write(`${deleted} demande(s) reçue(s) avant le ${before.toISOString()} supprimée(s).\n`);
  return deleted;
}
