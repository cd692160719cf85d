import type { Kysely } from 'kysely';
import { InvalidConfigError, type Config } from '../kernel/config.ts';
import { unknownMigrations } from '../kernel/journal/migrations.ts';
import { MissingJournalError, openOtherJournal } from '../wiring/create-store.ts';
import { withExistingStore } from './leads-commands.ts';

/**
 * `leadgate leads import <journal>` (docs/operations.md, « Restore »): the leads of a journal moved
 * aside (its SQLite file, the directory that holds it, or a PostgreSQL URL) that this journal lacks,
 * and the steps it had already delivered. Run before the service starts on a restored backup.
 */
export async function importJournal(
  config: Config,
  from: string,
  out: NodeJS.WritableStream,
): Promise<void> {
  const source = await openOtherJournal(from, config.database).catch((error: unknown) => {
    if (!(error instanceof MissingJournalError)) throw error;
    throw new InvalidConfigError(`aucun journal à importer : ${error.message}`);
  });
  try {
    const newer = await unknownMigrations(source.db as Kysely<unknown>, source.schema);
    if (newer.length > 0) {
      throw new InvalidConfigError(
        `${from} porte la migration ${newer.join(', ')}, inconnue de cette version de leadgate : importez-le avec la version qui l’a écrit`,
      );
    }
    const { imported, settled } = await withExistingStore(config, (store) =>
      store.importLeads(source.db),
    );
    out.write(
      `Importé de ${from} : ${imported} demande(s) absente(s) de ce journal, ${settled} envoi(s) déjà faits là-bas marqués faits ici.\n`,
    );
  } finally {
    await source.close();
  }
}
