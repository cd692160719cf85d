import type SQLite from 'better-sqlite3';
import type { Acceptance } from '../../lead/deliveries.ts';
import { emailOf, normalizeEmail } from '../../lead/lead.ts';
import {
  KeyTaken,
  earlierAcceptance,
  idempotencyKeysOf,
  keyRowsOf,
  leadRowOf,
  stepRowsOf,
  type AcceptInput,
  type NewLeadRow,
  type NewStepRow,
} from '../acceptance-rows.ts';
import type { IdempotencyKeysTable } from '../tables.ts';

/** `insert into table (a, b) values (@a, @b)`: better-sqlite3 binds a row object by its names. */
function insertOf(table: string, columns: readonly string[], onConflict = ''): string {
  const names = columns.map((column) => `"${column}"`).join(', ');
  const values = columns.map((column) => `@${column}`).join(', ');
  return `insert into "${table}" (${names}) values (${values})${onConflict && ` on conflict ${onConflict}`}`;
}

const LEAD_COLUMNS: readonly (keyof NewLeadRow)[] = [
  'id',
  'kind',
  'email',
  'payload',
  'received_at',
  'status',
  'attempts',
  'updated_at',
  'consent_wording',
  'consent_given_at',
  'consent_channel',
  'consent_page',
  'consent_network',
  'spam_reason',
];
const KEY_COLUMNS: readonly (keyof IdempotencyKeysTable)[] = [
  'key',
  'fingerprint',
  'lead_id',
  'state',
  'existing',
  'created_at',
  'updated_at',
];
const STEP_COLUMNS: readonly (keyof NewStepRow)[] = [
  'lead_id',
  'destination',
  'provider',
  'status',
  'attempts',
  'next_attempt_at',
  'received_at',
  'updated_at',
];

/**
 * The leads that arrive in one turn of the event loop, journaled by one synchronous SQLite
 * transaction of statements prepared once (docs/performance.md, "The accept path"): through Kysely,
 * building, compiling and awaiting each of a lead's six statements cost more than SQLite running
 * them. The same statements as the transaction per lead on PostgreSQL (postgres-journal-writes.ts), with the same rows
 * and decisions (acceptance-rows.ts). The caller holds the connection (Kysely's mutex), so no other
 * transaction is open on it; nothing here awaits, so none can start before the COMMIT.
 */
export class SqliteTurnAccepts {
  private readonly deleteKey: SQLite.Statement<[string]>;
  private readonly selectKey: SQLite.Statement<[string], IdempotencyKeysTable>;
  private readonly insertKnown: SQLite.Statement<[string, string, string]>;
  private readonly selectKnown: SQLite.Statement<[string, string]>;
  private readonly insertKey: SQLite.Statement<[IdempotencyKeysTable]>;
  private readonly insertLead: SQLite.Statement<[NewLeadRow]>;
  private readonly insertStep: SQLite.Statement<[NewStepRow]>;
  /** Journals the leads in one transaction, in arrival order (the caller holds the connection). */
  readonly journal: (inputs: readonly AcceptInput[]) => Acceptance[];

  constructor(database: SQLite.Database) {
    this.deleteKey = database.prepare('delete from "idempotency_keys" where "key" = ?');
    this.selectKey = database.prepare(
      'select "key", "fingerprint", "lead_id", "existing", "created_at" from "idempotency_keys" where "key" = ?',
    );
    this.insertKnown = database.prepare(
      'insert into "known_addresses" ("audience", "email", "first_seen_at") values (?, ?, ?) on conflict do nothing',
    );
    this.selectKnown = database.prepare(
      'select 1 from "known_addresses" where "audience" = ? and "email" = ?',
    );
    this.insertKey = database.prepare(
      insertOf('idempotency_keys', KEY_COLUMNS, '("key") do nothing'),
    );
    this.insertLead = database.prepare(insertOf('leads', LEAD_COLUMNS));
    this.insertStep = database.prepare(
      insertOf('delivery_steps', STEP_COLUMNS, '("lead_id", "destination") do nothing'),
    );
    this.journal = database.transaction((inputs: readonly AcceptInput[]) =>
      // In arrival order: a second request with the same key in the same turn replays the first.
      inputs.map((input) => this.journalOne(input)),
    );
  }

  private journalOne(input: AcceptInput): Acceptance {
    const { lead, steps, spam = false, idempotency } = input;
    const at = lead.receivedAt.toISOString();
    const keys = idempotencyKeysOf(input);
    const expiredBefore = idempotency.expiredBefore.toISOString();
    // An expired key is deleted where it is found (a delete per key was 15 % of the statements).
    const found = keys.flatMap((key) => this.selectKey.get(key) ?? []);
    const earlier = found.filter((row) => {
      if (row.created_at >= expiredBefore) return true;
      this.deleteKey.run(row.key);
      return false;
    });
    const decided = earlierAcceptance(earlier, input);
    if (decided) {
      const { recordKey } = decided;
      if (recordKey)
        this.insertKeys([recordKey.key], idempotency.fingerprint, recordKey.leadId, true, at);
      return decided.acceptance;
    }
    const email = normalizeEmail(emailOf(lead));
    const existing = spam
      ? this.selectKnown.get(lead.kind, email) !== undefined
      : this.insertKnown.run(lead.kind, email, at).changes === 0;
    this.insertKeys(keys, idempotency.fingerprint, lead.id, existing, at);
    this.insertLead.run(leadRowOf(input, email, at));
    for (const row of stepRowsOf(lead, steps, lead.receivedAt)) this.insertStep.run(row);
    return { accepted: 'new', leadId: lead.id, existing };
  }

  private insertKeys(
    keys: readonly string[],
    fingerprint: string,
    leadId: string,
    existing: boolean,
    at: string,
  ): void {
    for (const row of keyRowsOf(keys, fingerprint, leadId, existing, at)) {
      if (this.insertKey.run(row).changes !== 1) throw new KeyTaken();
    }
  }
}
