/**
 * The agency's team in the journal (docs/workspace-security.md): accounts, invitations, sessions,
 * recovery codes, sign-in throttling and the audit trail. Secrets are never stored: invitation and
 * session tokens and recovery codes by their SHA-256, passwords by their scrypt hash.
 */
export type StaffRole = 'admin' | 'member';

export interface StaffAccount {
  id: string;
  /** Normalized (lower case, trimmed): the sign-in name. */
  email: string;
  name: string;
  role: StaffRole;
  /** Null until the invitation is used. */
  passwordHash: string | null;
  /** Base32 TOTP key (RFC 6238) once enrolled; null otherwise. */
  totpSecret: string | null;
  /** An admin demands a second factor: the account must enrol before anything else. */
  totpRequired: boolean;
  /** The last TOTP time step accepted: a code is never accepted twice. */
  totpLastStep: number | null;
  disabledAt: Date | null;
  createdAt: Date;
}

export type StaffAccountChanges = Partial<
  Pick<
    StaffAccount,
    'name' | 'role' | 'passwordHash' | 'totpSecret' | 'totpRequired' | 'totpLastStep' | 'disabledAt'
  >
>;

export interface StaffSession {
  staffId: string;
  createdAt: Date;
  lastSeenAt: Date;
  /** The absolute end, whatever the activity. */
  expiresAt: Date;
}

/** One line of the audit trail: who did what to which target, and when. */
export interface StaffAuditEntry {
  id: string;
  at: Date;
  /** The account acting; null when no account is known (a failed sign-in for an unknown address). */
  staffId: string | null;
  /** Who, as shown: the account's address at the time, or what was typed (never a password). */
  actor: string;
  action: string;
  /** What the action was about: an id (`lead:…`, `staff:…`, a person's reference), never data. */
  target: string | null;
  /** A short detail (`nouveau → en cours`, a reason); no personal data beyond ids. */
  detail: string | null;
  /** How many times the event happened in its window (a throttled burst is one line): 1 otherwise. */
  repeats?: number;
}

export interface SignInFailures {
  failures: number;
  lastFailureAt: Date;
}

/**
 * docs/workspace-security.md, "Throttling": when a key's next attempt is allowed, after so many
 * failures.
 */
export interface ThrottleRule {
  /** Failures before any wait. */
  free: number;
  /** The wait after `failures` failures (0 below `free`), at most `longestMs`. */
  waitAfter(failures: number): number;
  longestMs: number;
}

/** An attempt claimed, or refused with the failures counted so far and when the wait ends. */
export type SignInClaim =
  { claimed: true } | { claimed: false; failures: number; waitStartedAt: Date; retryAt: Date };

export interface StaffJournal {
  /** Creates an account, or returns the existing one for that address (`team add` run twice). */
  addAccount(account: {
    id: string;
    email: string;
    name: string;
    role: StaffRole;
    now: Date;
  }): Promise<StaffAccount>;
  accountById(id: string): Promise<StaffAccount | undefined>;
  accountByEmail(email: string): Promise<StaffAccount | undefined>;
  accounts(): Promise<StaffAccount[]>;
  /** Disabling an account (`disabledAt` set) also spends its unused invitations. */
  updateAccount(id: string, changes: StaffAccountChanges, now: Date): Promise<void>;
  /**
   * RFC 6238 §5.2, a code used once: records `step` as the last accepted only if it is later than
   * the one stored, in one statement; false when another sign-in took that step first.
   */
  claimTotpStep(id: string, step: number, now: Date): Promise<boolean>;

  /** Issuing one spends every other unused invitation of the account (only the newest link works). */
  addInvitation(invitation: {
    tokenHash: string;
    staffId: string;
    createdBy: string | null;
    now: Date;
    expiresAt: Date;
  }): Promise<void>;
  /** The account an unused, unexpired invitation opens. */
  invitation(tokenHash: string, now: Date): Promise<string | undefined>;
  /**
   * Marks it used (once, on any node), and every other unused invitation of the account with it:
   * the account it opened, or undefined when already used/expired.
   */
  useInvitation(tokenHash: string, now: Date): Promise<string | undefined>;

  addSession(session: { tokenHash: string } & StaffSession): Promise<void>;
  session(tokenHash: string): Promise<StaffSession | undefined>;
  touchSession(tokenHash: string, now: Date): Promise<void>;
  deleteSession(tokenHash: string): Promise<void>;
  /** Sign-out everywhere, a disabled account, a new password: every session of the account ends. */
  deleteSessionsOf(staffId: string): Promise<number>;

  replaceRecoveryCodes(staffId: string, codeHashes: readonly string[]): Promise<void>;
  /** Spends one unused code; false if it is unknown or spent. */
  useRecoveryCode(staffId: string, codeHash: string, now: Date): Promise<boolean>;
  recoveryCodesLeft(staffId: string): Promise<number>;

  /** Sign-in throttling, shared by every node: failures per key (an address, an account). */
  signInFailures(keys: readonly string[]): Promise<Map<string, SignInFailures>>;
  /**
   * docs/workspace-security.md, "Throttling": counts one attempt as a failure under `key` if the
   * rule allows an attempt now, in one statement (increment-then-check: two nodes or two parallel
   * requests cannot both take the last free attempt); else says when the wait ends.
   */
  claimSignInAttempt(key: string, rule: ThrottleRule, now: Date): Promise<SignInClaim>;
  /** Gives back one claimed attempt (it succeeded, or another key refused it). */
  releaseSignInAttempts(keys: readonly string[]): Promise<void>;
  clearSignInFailures(key: string): Promise<void>;

  record(entry: StaffAuditEntry): Promise<void>;
  /**
   * One line per event and window (`entry.id` names both): the first occurrence writes it, each
   * later one adds 1 to its `repeats` and moves its date (OWASP Logging cheat sheet: rate-limit
   * what is logged).
   */
  recordRepeated(entry: StaffAuditEntry): Promise<void>;
  /** The trail, newest first. */
  auditTrail(query: { limit: number; before?: Date; action?: string }): Promise<StaffAuditEntry[]>;
  /**
   * docs/workspace-security.md, "Audit trail": deletes trail lines older than the date, and
   * sessions, invitations and throttling counters that ended before it; returns the trail lines
   * deleted.
   */
  purgeBefore(before: Date): Promise<number>;
}
