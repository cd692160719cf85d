// A journal of N leads for the workspace's benchmarks (bench/README.md, « The workspace »): a year
// of arrivals, three kinds, four assignees, 1 % held as spam, each lead with its delivery steps
// and, once started, a first answer; on SQLite or on a private PostgreSQL cluster.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { loadConfig } from '../../src/kernel/config.ts';
import { postgresDatabase } from '../../src/kernel/journal/postgres/postgres-database.ts';
import type { Store } from '../../src/kernel/journal/store.ts';
import type { Database } from '../../src/kernel/journal/tables.ts';
import { createStore } from '../../src/wiring/create-store.ts';
import { startPostgresCluster } from '../../test/helpers/postgres-cluster.ts';

export type Dialect = 'sqlite' | 'postgres';

const FIRST = ['Marie', 'Léa', 'Paul', 'Inès', 'Hugo', 'Chloé', 'Louis', 'Emma', 'Jules', 'Zoé'];
const LAST = Array.from({ length: 400 }, (_, i) => `Nom${i.toString(36)}ard`);
const MESSAGES = [
  'Je voudrais apparaître dans les résultats de mon quartier.',
  'Notre site est lent et ne ressort pas sur Google.',
  'Nous ouvrons une deuxième boutique et cherchons de la visibilité.',
  'Pouvez-vous refaire notre fiche d’établissement ?',
];
const SECTORS = ['avocats', 'boutiques', 'btp'];
const CHANNELS = ['form', 'form', 'form', 'api', 'mcp', 'agent'];
export const STAFF = ['staff-anne', 'staff-bruno', 'staff-chloe', 'staff-david'];
/** One lead every ~5 minutes: 100,000 leads are a year, the newest a few minutes old. */
const SPACING_MS = 315_000;

/** The id of the i-th lead (0 the oldest). */
export const leadId = (i: number) => `bench-${String(i).padStart(6, '0')}`;

export function leadRow(i: number, leads: number, now: number) {
  const kind = ['contact', 'audit', 'subscribe'][i % 3]!;
  const first = FIRST[i % FIRST.length]!;
  const last = LAST[Math.floor(i / FIRST.length) % LAST.length]!;
  const email = `${first.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()}.${last.toLowerCase()}.${i}@example.fr`;
  const message = MESSAGES[i % MESSAGES.length]!;
  const data =
    kind === 'contact'
      ? { PRENOM: first, NOM: last, EMAIL: email, SERVICE: 'Référencement local', DEMANDE: message }
      : kind === 'audit'
        ? {
            email,
            firstName: first,
            lastName: last,
            sector: SECTORS[Math.floor(i / 3) % SECTORS.length],
            formData: { 'Combien de chantiers par an ?': message },
          }
        : { email, firstName: first };
  const age = leads - i;
  const receivedAt = new Date(now - age * SPACING_MS).toISOString();
  const work =
    age < 200
      ? 'nouveau'
      : age < 2_000
        ? ['nouveau', 'en-cours'][i % 2]!
        : ['traite', 'archive', 'en-cours'][i % 3]!;
  // Started within a business day or two of arrival.
  const startedAt =
    work === 'nouveau' ? null : new Date(Date.parse(receivedAt) + (i % 40) * 3_600_000);
  const spam = i % 97 === 0;
  const started = startedAt && startedAt.getTime() < now ? startedAt.toISOString() : null;
  return {
    id: leadId(i),
    kind,
    email,
    payload: JSON.stringify(data),
    received_at: receivedAt,
    status: spam ? 'spam' : i % 53 === 0 ? 'dead' : 'delivered',
    spam_reason: spam ? ['honeypot', 'too-fast'][i % 2]! : null,
    attempts: 1,
    updated_at: receivedAt,
    consent_channel: CHANNELS[i % CHANNELS.length]!,
    work_status: work,
    assignee: work === 'nouveau' ? null : STAFF[i % STAFF.length]!,
    started_at: started,
    // The first answer's time, as answerRows journals it (docs/workspace.md, the answer promise).
    answered_at: started && kind !== 'subscribe' && !spam ? started : null,
    read_at: work === 'nouveau' ? null : receivedAt,
  };
}

type Lead = ReturnType<typeof leadRow>;

/** The agency's notification for every lead, the confirmation for contacts (both to the outbox). */
function stepRows(lead: Lead) {
  // A lead held as spam has no step until it is released.
  if (lead.status === 'spam') return [];
  const status = lead.status === 'dead' ? 'dead' : 'done';
  const step = (destination: string) => ({
    lead_id: lead.id,
    destination,
    provider: 'outbox',
    status,
    attempts: 1,
    next_attempt_at: lead.received_at,
    received_at: lead.received_at,
    updated_at: lead.received_at,
  });
  return lead.kind === 'contact'
    ? [step('agency-notification'), step('contact-confirmation')]
    : [step('agency-notification')];
}

/** A started contact or audit was answered by e-mail when it was started. */
function answerRows(lead: Lead) {
  if (!lead.started_at || lead.kind === 'subscribe' || lead.status === 'spam') return [];
  return [
    {
      id: `answer-${lead.id}`,
      lead_id: lead.id,
      at: lead.started_at,
      staff_id: lead.assignee!,
      staff_name: lead.assignee!.slice('staff-'.length),
      channel: 'email',
      subject: 'Votre demande',
      body: 'Bonjour, merci pour votre demande : je vous appelle demain.',
      sent_at: lead.started_at,
      sent_detail: 'outbox',
    },
  ];
}

async function seed(db: Kysely<Database>, leads: number): Promise<void> {
  const now = Date.now();
  for (let from = 0; from < leads; from += 1000) {
    const rows = Array.from({ length: Math.min(1000, leads - from) }, (_, k) =>
      leadRow(from + k, leads, now),
    );
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('leads').values(rows).execute();
      await trx.insertInto('delivery_steps').values(rows.flatMap(stepRows)).execute();
      const answers = rows.flatMap(answerRows);
      if (answers.length) await trx.insertInto('lead_answers').values(answers).execute();
    });
  }
}

/** A migrated journal holding `leads` leads; what a server process needs to open it. */
export interface SeededJournal {
  dialect: Dialect;
  /** DATA_DIR and, on PostgreSQL, DATABASE_URL: the server's environment. */
  env: Record<string, string>;
  /** The journal as the app opens it (for an account, or the store's own queries). */
  store: Store;
  seedSeconds: number;
  destroy(): Promise<void>;
}

export async function seededJournal(dialect: Dialect, leads: number): Promise<SeededJournal> {
  const dataDir = mkdtempSync(join(tmpdir(), 'leadgate-bench-ws-'));
  const cluster = dialect === 'postgres' ? await startPostgresCluster() : undefined;
  const env = { DATA_DIR: dataDir, ...(cluster && { DATABASE_URL: cluster.url() }) };
  const config = loadConfig(env);
  const store = await createStore(config);
  const db = cluster
    ? postgresDatabase(cluster.url(), { ...config.database, statementTimeoutMs: 0 })
    : new Kysely<Database>({
        dialect: new SqliteDialect({ database: new SQLite(join(dataDir, 'leadgate.sqlite')) }),
      });
  const start = performance.now();
  try {
    await seed(db, leads);
    // PostgreSQL's autovacuum would have analysed a journal this size; SQLite's planner runs without.
    if (cluster) await sql`ANALYZE`.execute(db);
  } finally {
    await db.destroy();
  }
  return {
    dialect,
    env,
    store,
    seedSeconds: (performance.now() - start) / 1000,
    async destroy() {
      await store.close();
      await cluster?.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
