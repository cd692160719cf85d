import { mailIdentity } from '../features/site/mail-identity.ts';
import type { Config } from '../kernel/config.ts';
import { createProvider } from '../providers/create-provider.ts';
import { journalName } from '../wiring/create-store.ts';
import { withStore } from './leads-commands.ts';
import { refuseMisleadingStart, sayWhereMailGoes } from './start-checks.ts';

/**
 * `leadgate check` (docs/deployment.md): what `serve` checks before it listens, and nothing more:
 * the settings, production's refusals, DATA_DIR, the journal (opened and migrated, as serve does)
 * and the provider's settings. The compose file runs it before any node starts, so a setting that
 * cannot work stops `docker compose up` once instead of restarting every node in a loop.
 */
export async function checkStart(
  config: Config,
  env: NodeJS.ProcessEnv,
  out: NodeJS.WritableStream,
  warn: (line: string) => void,
): Promise<void> {
  refuseMisleadingStart(config, env);
  await withStore(config, async (store) => {
    await createProvider(config, store, mailIdentity()).close();
  });
  sayWhereMailGoes(config, warn);
  out.write(
    `prêt : MAIL_PROVIDER=${config.mail.provider}, journal ${journalName(config)} à jour\n`,
  );
}
