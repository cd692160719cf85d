import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../src/kernel/config.ts';
import type { Lead } from '../src/kernel/lead/lead.ts';
import type { Store } from '../src/kernel/journal/store.ts';
import { createStore } from '../src/wiring/create-store.ts';
import { CONTACT_BODY } from './contact.ts';

export interface JournalRound {
  cpuMicrosPerAccept: number;
  acceptsPerSecond: number;
  kibWrittenPerAccept: number;
}

/** Bytes this process handed to write(2) so far: WAL frames and checkpoints. */
function bytesWritten(): number {
  return Number(/^wchar: (\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'))![1]);
}

let sequence = 0;

/** What the intake hands the journal for the benchmark's contact lead: the lead, two steps, its keys. */
function contactAcceptance() {
  sequence += 1;
  const id = `bench-${process.pid}-${sequence}`;
  const receivedAt = new Date();
  const data = JSON.parse(CONTACT_BODY.replace('[<id>]', id));
  return {
    lead: { kind: 'contact', id, receivedAt, data } as Lead,
    steps: ['confirmation-email', 'agency-notification'].map((destination) => ({
      destination,
      provider: 'outbox',
    })),
    idempotency: {
      key: `contact ${id}`,
      bodyKey: `same-body:${id}`,
      fingerprint: id,
      expiredBefore: new Date(receivedAt.getTime() - 86_400_000),
    },
  };
}

/**
 * The accept path's journal alone, in this process, on a new SQLite journal (WAL, group commit):
 * `count` contact leads accepted `burst` at a time (as many connections bring them in one turn).
 */
/** `burst` contact leads accepted at once, as that many connections bring them in one turn. */
export function acceptBurst(store: Store, burst = 50) {
  return Promise.all(
    Array.from({ length: burst }, () => store.deliveries.accept(contactAcceptance())),
  );
}

export async function journalRound(root: string, count: number, burst = 50): Promise<JournalRound> {
  const dataDir = join(root, `journal-${process.pid}-${Date.now()}`);
  const store = await createStore(loadConfig({ DATA_DIR: dataDir }));
  try {
    for (let done = 0; done < count / 10; done += burst) await acceptBurst(store, burst);
    const written = bytesWritten();
    const cpu = process.cpuUsage();
    const started = performance.now();
    for (let done = 0; done < count; done += burst) await acceptBurst(store, burst);
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    return {
      cpuMicrosPerAccept: (used.user + used.system) / count,
      acceptsPerSecond: count / seconds,
      kibWrittenPerAccept: (bytesWritten() - written) / 1024 / count,
    };
  } finally {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
