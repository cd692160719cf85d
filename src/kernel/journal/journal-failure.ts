/**
 * docs/operations.md (« What fails open, what never does »): an error that says the journal itself
 * cannot take a write (a full disk, a read-only file system, a database gone), named by its driver's
 * code, or undefined for anything else. The node is not ready while it lasts (`/readyz` 503).
 */
const JOURNAL_CODES = new Set([
  // better-sqlite3 (SQLite's extended result codes start with these)
  'SQLITE_FULL',
  'SQLITE_READONLY',
  'SQLITE_IOERR',
  'SQLITE_CANTOPEN',
  'SQLITE_CORRUPT',
  'SQLITE_NOTADB',
  // the file system under DATA_DIR
  'ENOSPC',
  'EROFS',
  'EIO',
  'EDQUOT',
  // pg: the server unreachable, or refusing writes (53100 disk full, 25006 read-only, 57P0x shutting down)
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  '53100',
  '25006',
  '57P01',
  '57P02',
  '57P03',
]);

export function journalFailure(error: unknown): string | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 6; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') {
      const base = code.replace(/^(SQLITE_[A-Z]+)_.*$/, '$1');
      if (JOURNAL_CODES.has(base)) return code;
    }
    if (/Connection terminated|timeout exceeded when trying to connect/i.test(current.message)) {
      return 'database unreachable';
    }
    current = current.cause;
  }
  return undefined;
}
