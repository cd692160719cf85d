import { accessSync, constants, existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Config } from '../config.ts';
import { InvalidConfigError } from './read-env.ts';

/**
 * DATA_DIR holds the SQLite journal and the outbox: one that cannot be written would otherwise fail
 * on the first lead (or with a stack trace at start). Checked only when something lives there.
 */
export function assertDataDirWritable(config: Config): void {
  if (config.databaseUrl !== undefined && config.mail.provider !== 'outbox') return;
  try {
    // docs/operations.md: the journal, the outbox and the backups are the service user's alone.
    mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
    accessSync(config.dataDir, constants.W_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new InvalidConfigError(
      `DATA_DIR "${config.dataDir}" is not a writable directory (${code})`,
    );
  }
}

/**
 * A stale site is rebuilt into a sibling of DIST_DIR, then swapped in
 * (src/features/site/output.ts): its folder must be writable. Checked before the build, so an
 * unwritable one is one line and exit 2, not a stack trace from deep in the build and a restart
 * loop.
 */
export function assertDistDirWritable(distDir: string): void {
  const parent = dirname(distDir);
  try {
    mkdirSync(parent, { recursive: true });
    accessSync(parent, constants.W_OK);
    if (existsSync(distDir)) accessSync(distDir, constants.W_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new InvalidConfigError(
      `DIST_DIR "${distDir}" must be rebuilt but its folder is not writable (${code}); build it beforehand with leadgate build, or point DIST_DIR at a writable place`,
    );
  }
}

/** Errors of listen() that are the operator's settings, not a bug: said as one line naming the variable. */
export function listenProblem(error: unknown, config: Config): InvalidConfigError | undefined {
  switch ((error as NodeJS.ErrnoException).code) {
    case 'EADDRINUSE':
      return new InvalidConfigError(`PORT ${config.port} is already in use on ${config.host}`);
    case 'EACCES':
      return new InvalidConfigError(`PORT ${config.port} needs privileges this process lacks`);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
    case 'EADDRNOTAVAIL':
      return new InvalidConfigError(`HOST "${config.host}" is not an address of this machine`);
    default:
      return undefined;
  }
}
