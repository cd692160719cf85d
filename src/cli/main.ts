import { SampleIdentityError } from '../../site/identity-check.ts';
import { InvalidConfigError } from '../config.ts';
import { DatabaseUnavailableError } from '../store/postgres/postgres-database.ts';
import { program } from './program.ts';

// Not a top-level await: the bundle `leadgate build` writes is CommonJS (src/cli/bundle-cli.ts).
void runCommand();

async function runCommand(): Promise<void> {
  try {
    await program.parseAsync(process.argv);
  } catch (error) {
    // docs/deployment.md: an unreachable database at start is one clear line and exit 1; the supervisor restarts.
    if (error instanceof DatabaseUnavailableError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    // A sample identity in production is a setting that cannot work: one line, exit 2.
    if (error instanceof SampleIdentityError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    // A page or case study that breaks the content contract (docs/site.md): one line naming the file.
    // By name: site/pages.ts is only loaded by the build, not at every start.
    if (error instanceof Error && error.name === 'ContentError') {
      process.stderr.write(`Contenu invalide : ${error.message}\n`);
      process.exit(2);
    }
    // The identity file against the pages, checked at build (a service page without its price).
    if (error instanceof Error && error.name === 'IdentityFileError') {
      process.stderr.write(`Identité de l’agence invalide : ${error.message}\n`);
      process.exit(2);
    }
    if (!(error instanceof InvalidConfigError)) throw error;
    // One line naming the variable, never a stack trace; exit now, whatever a half-started server holds.
    process.stderr.write(`Configuration invalide : ${error.message}\n`);
    process.exit(2);
  }
}
