import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type Config } from '../../src/kernel/config.ts';
import type { Lead } from '../../src/kernel/lead/lead.ts';
import type { SpamReason } from '../../src/kernel/lead/spam-reason.ts';
import { createStore } from '../../src/wiring/create-store.ts';
import type { Store } from '../../src/kernel/journal/store.ts';
import { createTestDatabase, type TestDialect } from './postgres-databases.ts';

export interface SharedDatabase {
  config: Config;
  /** Opens one more store on the same database, as one more leadgate node would. */
  open(): Promise<Store>;
  close(): Promise<void>;
}

/**
 * docs/deployment.md: one empty database of either dialect, and as many stores ("nodes") on it as a test wants.
 * With SQLite they share one file, as two processes on one host would.
 */
export async function sharedDatabase(dialect: TestDialect): Promise<SharedDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'leadgate-store-'));
  const database = dialect === 'postgres' ? await createTestDatabase() : undefined;
  const config = loadConfig({ DATA_DIR: dataDir, ...(database && { DATABASE_URL: database.url }) });
  const stores: Store[] = [];
  return {
    config,
    async open() {
      const store = await createStore(config);
      stores.push(store);
      return store;
    },
    async close() {
      await Promise.all(stores.map((store) => store.close()));
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

let sequence = 0;

/** A subscription lead as the intake would build it; `receivedAt` defaults to a minute ago. */
export function subscribeLead(email: string, receivedAt = new Date(Date.now() - 60_000)): Lead {
  sequence += 1;
  return {
    kind: 'subscribe',
    id: `lead-${String(sequence).padStart(6, '0')}-${Math.random().toString(36).slice(2, 8)}`,
    receivedAt,
    data: { email, firstName: 'Léa' },
  };
}

/** The agency notification through the outbox: the one step every lead has. */
export const NOTIFICATION_STEP = { destination: 'agency-notification', provider: 'outbox' };

/** Journals `lead` as the intake does (lead, idempotency record and steps in one transaction). */
export async function acceptLead(
  store: Store,
  lead: Lead,
  steps: readonly { destination: string; provider: string }[] = [NOTIFICATION_STEP],
) {
  return store.deliveries.accept({
    lead,
    steps,
    idempotency: { bodyKey: `test:${lead.id}`, fingerprint: lead.id, expiredBefore: new Date(0) },
  });
}

/**
 * A call recorded as the lead's answer (docs/workspace.md, « Répondre »), as « J’ai répondu par
 * téléphone » does: the lead's answer promise ends there.
 */
export async function recordCall(
  store: Store,
  lead: { id: string; receivedAt: Date },
  at: Date,
  by = { id: 'staff-anne', name: 'Anne' },
  note = 'Appel',
) {
  return store.answers.record({
    leadId: lead.id,
    receivedAt: lead.receivedAt,
    at,
    by,
    channel: 'phone',
    subject: null,
    body: note,
    inReplyTo: null,
    provider: '',
  });
}

/** Journals `lead` as the bot trap holds it (docs/api-decisions.md, "Bot trap"): `spam`, no step. */
export async function holdAsSpam(store: Store, lead: Lead, reason?: SpamReason) {
  return store.deliveries.accept({
    lead,
    steps: [],
    spam: true,
    ...(reason && { spamReason: reason }),
    idempotency: { bodyKey: `test:${lead.id}`, fingerprint: lead.id, expiredBefore: new Date(0) },
  });
}
