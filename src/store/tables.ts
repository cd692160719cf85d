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

export interface Database {
  leads: LeadsTable;
  known_addresses: KnownAddressesTable;
  rate_limit_hits: RateLimitHitsTable;
}
