import { Command, InvalidArgumentError, Option } from 'commander';
import { ensureSiteBuilt } from '../../site/freshness.ts';
import { InvalidConfigError, loadConfig } from '../config.ts';
import { startServer } from '../server.ts';
import { DatabaseUnavailableError } from '../store/postgres-database.ts';
import { migrateDatabase } from './db-commands.ts';
import { exportLeads, listLeads, purgeLeads, replayLeads } from './leads-commands.ts';

const program = new Command('leadgate').description('Le site de l’agence et son API de demandes.');

program
  .command('serve')
  .description('Sert le site et l’API (PORT, 3000 par défaut).')
  .action(async () => {
    const config = loadConfig();
    // A fresh clone has no dist/: build it (or rebuild a stale one) so `npm ci && npm start` works.
    await ensureSiteBuilt(config.distDir, config.siteUrl, (line) =>
      process.stdout.write(`${line}\n`),
    );
    await startServer(config);
  });

program
  .command('build')
  .description(
    'Pré-rend le site dans dist/ (DIST_DIR) : pages HTML et Markdown, llms.txt, sitemap…',
  )
  .action(async () => {
    const config = loadConfig();
    const { buildSite } = await import('../../site/build.ts');
    const result = await buildSite({ siteUrl: config.siteUrl, outDir: config.distDir });
    process.stdout.write(
      `${result.pages} pages, ${result.files} fichiers écrits dans ${config.distDir} en ${result.milliseconds} ms\n`,
    );
    // Issue 4: the next starts run this bundle instead of compiling the sources (cold start).
    const { bundleCli } = await import('./bundle-cli.ts');
    const problem = await bundleCli();
    if (problem) process.stderr.write(`${problem}\n`);
  });

program
  .command('db')
  .description('La base de données (SQLite, ou PostgreSQL avec DATABASE_URL).')
  .command('migrate')
  .description('Met le schéma à jour, puis s’arrête.')
  .action(() => migrateDatabase(loadConfig(), process.stdout));

const leads = program.command('leads').description('Le journal des demandes reçues.');
leads
  .command('list')
  .description('Liste les demandes, les plus anciennes d’abord.')
  .action(() => listLeads(loadConfig(), process.stdout));
leads
  .command('export')
  .description('Exporte toutes les demandes.')
  .addOption(new Option('--format <format>', 'csv ou json').choices(['csv', 'json']).default('csv'))
  .action((options: { format: 'csv' | 'json' }) =>
    exportLeads(loadConfig(), options.format, process.stdout),
  );
leads
  .command('replay')
  .description('Transmet à nouveau les demandes en échec ou restées en attente.')
  .action(async () => {
    const { failed } = await replayLeads(loadConfig(), process.stdout);
    if (failed > 0) process.exitCode = 1;
  });
leads
  .command('purge')
  .description('Supprime les demandes reçues il y a plus de N jours (3 ans par défaut).')
  .addOption(
    new Option('--older-than-days <days>', 'âge en jours')
      .argParser((value) => {
        if (!/^\d+$/.test(value))
          throw new InvalidArgumentError('un nombre entier de jours est attendu');
        return Number(value);
      })
      .default(3 * 365),
  )
  .action(async (options: { olderThanDays: number }) => {
    await purgeLeads(loadConfig(), options.olderThanDays, process.stdout);
  });

try {
  await program.parseAsync(process.argv);
} catch (error) {
  // Issue 5: an unreachable database at start is one clear line and exit 1; the supervisor restarts.
  if (error instanceof DatabaseUnavailableError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  if (!(error instanceof InvalidConfigError)) throw error;
  process.stderr.write(`Configuration invalide : ${error.message}\n`);
  process.exitCode = 2;
}
