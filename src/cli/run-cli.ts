import { CommanderError } from 'commander';
import { SampleIdentityError } from '../features/site/identity-check.ts';
import { InvalidConfigError } from '../kernel/config.ts';
import { DatabaseUnavailableError } from '../kernel/journal/postgres/postgres-database.ts';
import type { CliIo } from './cli-io.ts';
import { createProgram } from './program.ts';

/**
 * Runs one `leadgate` command with `io` and answers its exit code: main.ts with the process's own
 * streams, the CLI tests in-process with theirs. A mistake the operator can fix is one line on
 * stderr and a code, never a stack trace; anything else is thrown.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const line = (text: string) => io.stderr.write(`${text}\n`);
  try {
    await createProgram(io).parseAsync(argv);
    return io.exitCode;
  } catch (error) {
    // Commander has already said what was wrong with the command line (or printed the help).
    if (error instanceof CommanderError) return error.exitCode;
    // docs/deployment.md: an unreachable database at start is one clear line and exit 1; the supervisor restarts.
    if (error instanceof DatabaseUnavailableError) {
      line(error.message);
      return 1;
    }
    // A sample identity in production is a setting that cannot work: one line, exit 2.
    if (error instanceof SampleIdentityError) {
      line(error.message);
      return 2;
    }
    // A page or case study that breaks the content contract (docs/site.md): one line naming the file.
    // By name: src/features/site/pages.ts is only loaded by the build, not at every start.
    if (error instanceof Error && error.name === 'ContentError') {
      line(`Contenu invalide : ${error.message}`);
      return 2;
    }
    // The identity file against the pages, checked at build (a service page without its price).
    if (error instanceof Error && error.name === 'IdentityFileError') {
      line(`Identité de l’agence invalide : ${error.message}`);
      return 2;
    }
    if (!(error instanceof InvalidConfigError)) throw error;
    // One line naming the variable, never a stack trace.
    line(`Configuration invalide : ${error.message}`);
    return 2;
  }
}
