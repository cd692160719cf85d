/** Kysely's view of the tables created by migrations.ts. Times are ISO-8601 text in both dialects. */
export interface LeadsTable {
  id: string;
  kind: string;
  email: string;
  payload: string;
  received_at: string;
  status: string;
  attempts: number;
  last_error: string | null;
  provider_answer: string | null;
  updated_at: string;
  /** Issue 5: a replay on some node holds this lead until then (ISO-8601); null when free. */
  claimed_until: string | null;
}

export interface KnownAddressesTable {
  audience: string;
  email: string;
  first_seen_at: string;
}

/** Issue 5: fixed-window rate-limit counters shared by every node on the database. */
export interface RateLimitHitsTable {
  key: string;
  hits: number;
  reset_at: string;
}

/** Issue 4: Idempotency-Key of a request → the lead it journaled and how its hand-off ended. */
export interface IdempotencyKeysTable {
  key: string;
  fingerprint: string;
  lead_id: string;
  state: string;
  /** 0 or 1 once `done`; an integer because SQLite has no boolean. */
  existing: number | null;
  created_at: string;
  updated_at: string;
}

/** Issue 4: one row per e-mail of a lead that a provider accepted. */
export interface LeadHandoffsTable {
  lead_id: string;
  role: string;
  handed_over_at: string;
}

export interface Database {
  leads: LeadsTable;
  known_addresses: KnownAddressesTable;
  rate_limit_hits: RateLimitHitsTable;
  idempotency_keys: IdempotencyKeysTable;
  lead_handoffs: LeadHandoffsTable;
}
