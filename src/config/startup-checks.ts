import { accessSync, constants, mkdirSync } from 'node:fs';
import type { Config } from '../config.ts';
import { InvalidConfigError } from './read-env.ts';

/**
 * DATA_DIR holds the SQLite journal and the outbox: one that cannot be written would otherwise fail
 * on the first lead (or with a stack trace at start). Checked only when something lives there.
 */
export function assertDataDirWritable(config: Config): void {
  if (config.databaseUrl !== undefined && config.mail.provider !== 'outbox') return;
  try {
    mkdirSync(config.dataDir, { recursive: true });
    accessSync(config.dataDir, constants.W_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new InvalidConfigError(
      `DATA_DIR "${config.dataDir}" is not a writable directory (${code})`,
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
