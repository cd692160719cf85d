// The commands of `leadgate`, without running them: run-cli.ts runs them with the process's streams
// (main.ts) or a test's, the docs-command test (test/quality/docs-commands.test.ts) reads their
// names and options.
import { Argument, Command, InvalidArgumentError, Option } from 'commander';
import { ensureSiteBuilt } from '../features/site/freshness.ts';
import { privacySettings } from '../features/site/privacy-notice.ts';
import { contentDirOf } from '../features/site/sample-content.ts';
import { loadConfig as loadConfigFrom } from '../kernel/config.ts';
import { LEAD_STATUSES, type LeadStatus } from '../kernel/lead/lead-status.ts';
import { LEAD_KINDS, type LeadKind } from '../kernel/schemas/lead-kinds.ts';
import { renderEnvExample } from '../kernel/config/env-example.ts';
import { startServer } from '../server.ts';
import { refuseMisleadingStart, sayWhereMailGoes } from './start-checks.ts';
import { journalLine, journalUse, refuseWrongJournal } from './journal-choice.ts';
import { loadEnvFile } from '../kernel/config/env-file.ts';
import { checkStart } from './check-command.ts';
import { checkProviderAccount } from './config-check-command.ts';
import { backupDatabase, databaseStatus, migrateDatabase } from './db-commands.ts';
import { deliveryStatus, dispatch, replayLeads } from './delivery-commands.ts';
import { forgetPersonCommand, showPerson } from './people-commands.ts';
import { exportLeads, listLeads, purgeLeads } from './leads-commands.ts';
import { importJournal } from './import-command.ts';
import { releaseLead } from './spam-commands.ts';
import { previewMail } from './mail-commands.ts';
import { PREVIEWS, type PreviewName } from './mail-previews.ts';
import { addTeamMember } from './team-commands.ts';
import { testWebhook } from './webhooks-commands.ts';
import type { CliIo } from './cli-io.ts';
import { createLogger } from '../kernel/observability/logging.ts';

/**
 * docs/operations.md ("Private by default"): the journal, the outbox's .eml files and the backups
 * are created readable by the service user only, whatever started the process (systemd's UMask,
 * a container, a shell, cron).
 */
function privateFiles(): void {
  process.umask(0o077);
}

/** The commands that deliver leads: production's refusals first (src/cli/start-checks.ts). */
const DELIVERS = new Set(['serve', 'dispatch', 'check', 'leads replay', 'leads release']);

/** The commands that say their journal once the start succeeded (journal-choice.ts). */
const SAYS_ONCE_STARTED = new Set(['serve', 'dispatch', 'check']);

/** A subcommand's words, `team add`. */
function commandPath(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at?.parent; at = at.parent) names.unshift(at.name());
  return names.join(' ');
}

/** Every command, writing to `io` and reading its settings from `io.env` only. */
export function createProgram(io: CliIo): Command {
  const { env, stdout, stderr } = io;
  const warn = (line: string) => stderr.write(`${line}\n`);
  const loadConfig = () => loadConfigFrom(env);
  const program = new Command('leadgate')
    .description('Le site de l’agence et son API de demandes.')
    // Set before the subcommands, which inherit both: a usage error is an exit code, not an exit.
    .exitOverride()
    .configureOutput({
      writeOut: (text) => stdout.write(text),
      writeErr: (text) => stderr.write(text),
    });

  // Before the command's name (`leadgate --env-file F team add`): `config example --env-file` is another option.
  program
    .enablePositionalOptions()
    .option(
      '--env-file <fichier>',
      'lit les réglages du service dans ce fichier (celui de systemd ou de Docker) avant la commande',
    );
  program.hook('preAction', (_program, command) => {
    const path = commandPath(command);
    // Every command but the site build, which writes files a web server may serve, and `serve`,
    // which makes its files private once its site is built.
    if (!['build', 'serve'].includes(path)) privateFiles();
    const { envFile } = program.opts<{ envFile?: string }>();
    if (envFile) loadEnvFile(env, envFile);
    if (journalUse(path) === 'none') return;
    const config = loadConfig();
    // Before anything is created, built, migrated or opened: the journal, then production's
    // refusals (docs/deployment.md, "Production").
    refuseWrongJournal(config, env, path);
    if (DELIVERS.has(path)) refuseMisleadingStart(config, env);
    // First line of every command that opens the journal: which one (docs/operations.md). The
    // service's processes and the start check say it once started, so a refused start stays one line.
    if (!SAYS_ONCE_STARTED.has(path)) warn(journalLine(config));
  });

  program
    .command('serve')
    .description('Sert le site et l’API (PORT, 3000 par défaut).')
    .action(async () => {
      const config = loadConfig();
      // A fresh clone has no dist/: build it (or rebuild a stale one) so `npm ci && npm start` works.
      await ensureSiteBuilt(
        config.distDir,
        config.siteUrl,
        (line) => stdout.write(`${line}\n`),
        privacySettings(config),
        contentDirOf(config.contentDir),
      );
      // The site is built with the umask the process got (a web server may read it); what DATA_DIR
      // receives from here on is private.
      privateFiles();
      await startServer(config);
      // Once listening, so a refused start stays one line.
      warn(journalLine(config));
      sayWhereMailGoes(config, warn);
    });

  program
    .command('check')
    .description(
      'Vérifie ce que serve vérifie au démarrage (réglages, production, journal migré, fournisseur), puis s’arrête.',
    )
    .action(async () => {
      await checkStart(loadConfig(), stdout, warn);
    });

  program
    .command('dispatch')
    .description('Livre les demandes en attente, sans servir le site (un processus à part).')
    .action(async () => {
      const stopped = new Promise((resolve) => {
        process.once('SIGTERM', resolve);
        process.once('SIGINT', resolve);
      });
      const config = loadConfig();
      await dispatch(config, stdout, stopped, () => {
        warn(journalLine(config));
        sayWhereMailGoes(config, warn);
      });
    });

  program
    .command('build')
    .description(
      'Pré-rend le site dans dist/ (DIST_DIR) : pages HTML et Markdown, llms.txt, sitemap…',
    )
    .option(
      '--allow-sample-identity',
      'publie les valeurs d’exemple (!exemple) de site/agency.yaml même avec NODE_ENV=production',
    )
    .action(async (options: { allowSampleIdentity?: boolean }) => {
      const config = loadConfig();
      // docs/performance.md ("The site build", cold start): the next starts run the CLI bundle
      // instead of compiling the sources. esbuild bundles in its own process, so while the site is
      // built here.
      const bundled = import('./bundle-cli.ts').then(({ refreshBundle }) => refreshBundle());
      const { buildSite } = await import('../features/site/build.ts');
      const { identityPolicyFromEnv } = await import('../features/site/identity-check.ts');
      const result = await buildSite({
        siteUrl: config.siteUrl,
        outDir: config.distDir,
        identity: identityPolicyFromEnv(env, options.allowSampleIdentity),
        privacy: privacySettings(config),
        contentDir: contentDirOf(config.contentDir),
      }).catch(async (error: unknown) => {
        // A build refused (a mistake in site/agency.yaml) exits at once: esbuild's process is let
        // finish first, or it dies writing a Go stack trace under the one-line message.
        await bundled;
        throw error;
      });
      for (const warning of result.warnings) stderr.write(`${warning}\n`);
      stdout.write(
        `${result.pages} pages, ${result.files} fichiers écrits dans ${config.distDir} en ${result.milliseconds} ms\n`,
      );
      const problem = await bundled;
      if (problem) stderr.write(`${problem}\n`);
    });

  const db = program
    .command('db')
    .description('La base de données (SQLite, ou PostgreSQL avec DATABASE_URL).');
  db.command('migrate')
    .description('Met le schéma à jour (après une sauvegarde du fichier SQLite), puis s’arrête.')
    .action(() => migrateDatabase(loadConfig(), stdout));
  db.command('status')
    .description('Les migrations appliquées et en attente, et les sauvegardes gardées.')
    .action(async () => {
      await databaseStatus(loadConfig(), stdout);
    });

  program
    .command('backup <file>')
    .description('Copie cohérente du journal SQLite, même pendant que le serveur tourne.')
    .action(async (file: string) => {
      if (!(await backupDatabase(loadConfig(), file, stderr))) io.exitCode = 1;
    });

  const settings = program
    .command('config')
    .description('La configuration (variables d’environnement).');
  settings
    .command('check')
    .description(
      'Lit le compte du fournisseur (Brevo : attributs, listes, expéditeurs) sans rien changer et dit ce qui manque ; code de sortie 1 s’il manque quelque chose.',
    )
    .action(async () => {
      if (!(await checkProviderAccount(loadConfig(), stdout))) io.exitCode = 1;
    });
  settings
    .command('example')
    .description('Écrit le fichier .env.example, tiré du schéma de la configuration.')
    .option(
      '--env-file',
      'sans guillemets ni chemins, pour systemd (EnvironmentFile=) et docker run --env-file : deploy/leadgate.env.example',
    )
    .action((options: { envFile?: boolean }) => {
      stdout.write(renderEnvExample(options.envFile ? 'env-file' : 'sh'));
    });

  const leads = program.command('leads').description('Le journal des demandes reçues.');
  leads
    .command('list')
    .description('Liste les demandes, les plus anciennes d’abord, avec leur dernière erreur.')
    .addOption(new Option('--status <status>', 'seulement ce statut').choices(LEAD_STATUSES))
    .action((options: { status?: LeadStatus }) => listLeads(loadConfig(), stdout, options.status));
  leads
    .command('export')
    .description('Exporte toutes les demandes.')
    .addOption(
      new Option('--format <format>', 'csv ou json').choices(['csv', 'json']).default('csv'),
    )
    .addOption(
      new Option(
        '--excel',
        'CSV pour un tableur français : BOM UTF-8, « ; », une colonne par champ et par question',
      ).conflicts('format'),
    )
    .action((options: { format: 'csv' | 'json'; excel?: boolean }) =>
      exportLeads(loadConfig(), options.excel ? 'excel' : options.format, stdout),
    );
  leads
    .command('replay')
    .description(
      'Transmet tout de suite les demandes pas encore livrées (en attente, en reprise, abandonnées).',
    )
    .option(
      '--destination <name>',
      'seulement cette destination (un nom que « leads status » affiche, par exemple webhook:…)',
    )
    .action(async (options: { destination?: string }) => {
      const config = loadConfig();
      const { failed } = await replayLeads(
        config,
        stdout,
        options.destination,
        createLogger(config, stderr),
      );
      if (failed > 0) io.exitCode = 1;
    });
  leads
    .command('release')
    .description(
      'Livre une demande que le piège à robots a prise pour du spam (statut « spam ») : avec la configuration du serveur.',
    )
    .argument('<id>', 'identifiant de la demande (leads list --status spam)')
    .action(async (id: string) => {
      const config = loadConfig();
      if (!(await releaseLead(config, id, stdout, stderr, createLogger(config, stderr))))
        io.exitCode = 1;
    });
  leads
    .command('import')
    .description(
      'Après une restauration : reprend d’un journal mis de côté les demandes absentes de celui-ci, et les envois qu’il avait déjà faits.',
    )
    .argument('<journal>', 'le fichier SQLite mis de côté (ou son dossier), ou une URL PostgreSQL')
    .action(async (from: string) => {
      await importJournal(loadConfig(), from, stdout);
    });
  leads
    .command('status')
    .description(
      'Envois en attente, en reprise et abandonnés par destination ; âge de la plus ancienne.',
    )
    .action(async () => {
      await deliveryStatus(loadConfig(), stdout);
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
      await purgeLeads(loadConfig(), options.olderThanDays, stdout);
    });

  program
    .command('webhooks')
    .description('Les webhooks signés vers les outils de l’agence (docs/webhooks.md).')
    .command('test')
    .description('Envoie un exemple signé à <url> et affiche la réponse.')
    .argument('<url>', 'adresse http(s) du destinataire')
    .addOption(
      new Option('--kind <kind>', 'type de demande')
        .choices(LEAD_KINDS.map((kind) => kind.kind))
        .default('contact'),
    )
    .action(async (url: string, options: { kind: LeadKind }) => {
      if (!(await testWebhook(loadConfig(), url, options.kind, stdout))) io.exitCode = 1;
    });

  program
    .command('mail')
    .description('Les e-mails envoyés aux personnes et à l’agence (docs/emails.md).')
    .command('preview')
    .description(
      'Écrit les e-mails d’une demande d’exemple (.eml et HTML), avec l’identité et la configuration du serveur, sans rien envoyer.',
    )
    .addArgument(new Argument('<e-mail>', 'quels e-mails').choices(PREVIEWS))
    .option('--out <dossier>', 'dossier où les écrire', 'apercu-e-mails')
    .action(async (name: PreviewName, options: { out: string }) => {
      await previewMail(loadConfig(), name, options.out, stdout);
    });

  const people = program
    .command('people')
    .description('Les droits des personnes : accès et effacement (docs/consent.md).');
  people
    .command('show')
    .description('Tout ce que le journal garde sur une adresse, en JSON.')
    .argument('<email>', 'adresse de la personne')
    .action((email: string) => showPerson(loadConfig(), email, stdout, stderr));
  people
    .command('forget')
    .description(
      'Efface les demandes et tout ce qui concerne une adresse, ici et chez le prestataire.',
    )
    .argument('<email>', 'adresse de la personne')
    .action(async (email: string) => {
      if (!(await forgetPersonCommand(loadConfig(), email, stdout))) io.exitCode = 1;
    });

  program
    .command('team')
    .description('L’équipe de l’agence dans l’espace /equipe (docs/workspace-security.md).')
    .command('add')
    .description(
      'Crée un compte (ou en réinitialise le mot de passe) et affiche son lien d’invitation, valable une fois pendant 48 h.',
    )
    .argument('<email>', 'adresse e-mail du membre')
    .option('--admin', 'administrateur : gère l’équipe et voit le journal d’activité')
    .action(async (email: string, options: { admin?: boolean }) => {
      const role = options.admin ? 'admin' : 'member';
      if (!(await addTeamMember(loadConfig(), email, role, stdout, stderr))) io.exitCode = 1;
    });
  return program;
}
