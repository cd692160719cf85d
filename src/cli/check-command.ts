import { servedMailIdentity } from '../features/site/served-identity.ts';
import { InvalidConfigError, type Config } from '../kernel/config.ts';
import { createProvider } from '../providers/create-provider.ts';
import { journalName } from '../wiring/create-store.ts';
import { journalLine } from './journal-choice.ts';
import { withStore } from './leads-commands.ts';
import { sayWhereMailGoes } from './start-checks.ts';

/**
 * `leadgate check` (docs/deployment.md): what `serve` checks before it listens, and nothing more:
 * the settings, production's refusals, DATA_DIR, the journal (opened and migrated, as serve does),
 * the provider's settings and, with SMTP, the connection and sign-in (nodemailer's verify()). The compose file runs it before any node starts, so a setting that
 * cannot work stops `docker compose up` once instead of restarting every node in a loop.
 */
export async function checkStart(
  config: Config,
  out: NodeJS.WritableStream,
  warn: (line: string) => void,
): Promise<void> {
  // Production's refusals ran before, with every command that delivers (program.ts).
  await withStore(config, async (store) => {
    const provider = createProvider(config, store, servedMailIdentity);
    try {
      // An SMTP server that refuses connections or the login: said now, not at the first lead.
      const problem = await provider.verify?.(AbortSignal.timeout(config.mail.timeoutMs * 2));
      if (problem) throw new InvalidConfigError(problem);
    } finally {
      await provider.close();
    }
  });
  warn(journalLine(config));
  sayWhereMailGoes(config, warn);
  out.write(
    `prêt : MAIL_PROVIDER=${config.mail.provider}, journal ${journalName(config)} à jour\n`,
  );
}
