import { defineConfig } from 'vitest/config';

/** docs/quality.md: the suites that run a second time with the journal on PostgreSQL. */
const POSTGRES_SUITES = [
  ...[
    'kernel/journal',
    'kernel/http',
    'features/intake',
    'features/newsletter',
    'cli',
    'hardening',
    'providers',
  ].map((folder) => `test/${folder}/**/*.test.ts`),
  'test/features/privacy/privacy-page.test.ts',
  'test/features/privacy/privacy-requests.test.ts',
  // docs/workspace-security.md: the workspace's sessions, throttling, audit trail and pages.
  'test/features/staff/workspace-security.test.ts',
  'test/features/staff/audit-retention.test.ts',
  'test/features/privacy/people-desk.test.ts',
  'test/features/staff/two-nodes.test.ts',
  // docs/workspace-security.md, "Throttling": parallel sign-in bursts and TOTP codes on two nodes.
  'test/features/staff/sign-in-bursts.test.ts',
  // The team's whole day in Chromium: search, statuses, « Relancer », release and export.
  'test/features/inbox/workspace-browser.test.ts',
  // docs/workspace.md: the dashboard's figures and the team's daily summary on both journals.
  'test/features/inbox/dashboard.test.ts',
  // docs/performance.md, « Exports »: an export streamed while leads arrive, on both journals.
  'test/features/inbox/export-streaming.test.ts',
  'test/features/inbox/team-summary.test.ts',
  // docs/workspace.md, « Répondre »: answers sent once, two nodes included, on both journals.
  'test/features/answers/answer-delivery.test.ts',
  'test/features/inbox/answer-figures.test.ts',
  // docs/inbound.md: the prospects' replies, bounces and complaints on both journals.
  'test/features/inbound/inbound.test.ts',
];

/**
 * docs/quality.md, « How the suite runs »: files of those folders that choose their journal
 * themselves (SQLite only, PostgreSQL only, or both in a loop of their own) or open none. With
 * LEADGATE_TEST_DIALECT=postgres they would run again exactly as in the `sqlite` project.
 */
const DIALECT_FIXED = [
  ...['ascii-bundle', 'bundle-cli', 'run-bundle'].map((name) => `cli/${name}`),
  ...['export', 'export-spreadsheet', 'leads', 'leads-import', 'webhooks'].map(
    (name) => `cli/${name}`,
  ),
  ...[
    'confirmation-cap',
    'disk-full',
    'erasure-bytes',
    'fuzz',
    'idempotency',
    'limits-config',
    'mailbox-caps',
    'replay-handoffs',
    'slow-clients',
  ].map((name) => `hardening/${name}`),
  ...['client-address', 'french-text', 'journal-health', 'refusal-log', 'site-logging'].map(
    (name) => `kernel/http/${name}`,
  ),
  ...[
    'api-parity',
    'batched-per-turn',
    'journal',
    'journal-contract',
    'lead-work',
    'migration-backup',
    'postgres-limits',
    'rate-limit-counters',
    'sqlite-group-commit',
    'sqlite-statement-cache',
  ].map((name) => `kernel/journal/${name}`),
  ...['brevo-payloads', 'webhook-destination'].map((name) => `providers/${name}`),
].map((file) => `test/${file}.test.ts`);

export default defineConfig({
  test: {
    // docs/quality.md: most test files wait on sockets, child processes and browsers rather than on
    // the CPU, so four files run at once on the two cores (Vitest's default is cores − 1 = one).
    maxWorkers: 4,
    // docs/quality.md: a worker keeps the modules it loaded from one test file to the next, instead
    // of loading the app again for each of its files (most of a file's time was that import).
    isolate: false,
    // docs/quality.md, « Waits sized for a loaded machine »: a test may wait on several polls of up
    // to 30 s each (below); at 30 s, one with four polls timed out on PostgreSQL in a full run.
    testTimeout: 90_000,
    hookTimeout: 60_000,
    // docs/quality.md: fast-check properties run from a fixed seed (LEADGATE_PROPERTY_SEED varies it).
    setupFiles: ['test/helpers/property-seed.ts', 'test/helpers/process-umask.ts'],
    // docs/quality.md, « Waits sized for a loaded machine »: an `expect.poll` waits for what a
    // dispatcher, an SMTP server or a browser does, which takes several seconds when the two
    // cores are shared; Vitest's default of 1 s failed `workspace-browser` under load.
    expect: { poll: { timeout: 30_000, interval: 100 } },
    projects: [
      {
        extends: true,
        test: {
          name: 'sqlite',
          include: ['test/**/*.test.ts'],
          // docs/deployment.md: a private PostgreSQL cluster for the run (stopped at the end), for
          // the dialect tests; the site built once and copied by each file that serves it.
          globalSetup: [
            'test/helpers/postgres-global-setup.ts',
            'test/helpers/site-global-setup.ts',
          ],
        },
      },
      {
        extends: true,
        test: {
          name: 'postgres',
          include: POSTGRES_SUITES,
          exclude: DIALECT_FIXED,
          env: { LEADGATE_TEST_DIALECT: 'postgres' },
          globalSetup: [
            'test/helpers/postgres-global-setup.ts',
            'test/helpers/site-global-setup.ts',
          ],
        },
      },
    ],
  },
});
