import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { buildApp, type AppDependencies } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/kernel/config.ts';
import { createProvider, type ProviderJournal } from '../../src/providers/create-provider.ts';
import type { Provider } from '../../src/features/delivery/provider.ts';
import { createStore } from '../../src/wiring/create-store.ts';
import type { Store } from '../../src/kernel/journal/store.ts';
import { createTestDatabase, defaultTestDialect, type TestDialect } from './postgres-databases.ts';
import { servedMailIdentity } from '../../src/features/site/served-identity.ts';

export interface TestApp {
  app: FastifyInstance;
  store: Store;
  config: Config;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * Builds the real app on a real SQLite file in a fresh temp directory. `env` is read exactly as the
 * server reads the environment; `provider` replaces the one MAIL_PROVIDER would pick. Contract tests
 * observe the hand-off in the request, so DELIVERY is `sync` unless `env` says otherwise; delivery
 * tests set `queued` and `dispatch` (test/delivery/).
 */
export async function buildTestApp(
  options: {
    env?: Record<string, string>;
    provider?: (config: Config, journal: ProviderJournal) => Provider;
    /** Starts the background dispatcher, as `leadgate serve` does (docs/delivery.md). */
    dispatch?: boolean;
    /** docs/deployment.md: `postgres` gives the app a fresh database on the test PostgreSQL server. */
    dialect?: TestDialect;
    /** docs/site.md: a built site (see test/helpers/site.ts) for the app to serve. */
    siteDir?: string;
  } & Pick<
    AppDependencies,
    'logger' | 'timeouts' | 'now' | 'passwordCost' | 'dispatcherTimings'
  > = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'leadgate-test-'));
  const database =
    (options.dialect ?? defaultTestDialect) === 'postgres' ? await createTestDatabase() : undefined;
  // Contract tests send many requests from one address: the rate limiter (docs/reliability.md) is off unless a test sets it.
  const config = loadConfig({
    DATA_DIR: dataDir,
    RATE_LIMIT_PER_MINUTE: '0',
    DELIVERY: 'sync',
    ...(database && { DATABASE_URL: database.url }),
    ...options.env,
  });
  const store = await createStore(config);
  const provider = options.provider
    ? options.provider(config, store)
    : createProvider(config, store, servedMailIdentity);
  const app = await buildApp({
    config,
    store,
    provider,
    siteDir: options.siteDir,
    logger: options.logger,
    timeouts: options.timeouts,
    now: options.now,
    passwordCost: options.passwordCost,
    dispatcherTimings: options.dispatcherTimings,
  });
  await app.ready();
  if (options.dispatch) app.dispatcher.start();
  return {
    app,
    store,
    config,
    dataDir,
    async close() {
      await app.dispatcher.stop();
      await app.close();
      await provider.close();
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
      await database?.drop();
    },
  };
}

/**
 * One test app for a whole test file (built before its first test, closed after its last), or a
 * fresh one for each test with `each`: the hooks every contract test would otherwise repeat. Read
 * its fields inside tests only.
 */
export function useTestApp(
  options: Parameters<typeof buildTestApp>[0] = {},
  { each = false }: { each?: boolean } = {},
): Omit<TestApp, 'close'> {
  let current: TestApp | undefined;
  (each ? beforeEach : beforeAll)(async () => {
    current = await buildTestApp(options);
  });
  (each ? afterEach : afterAll)(async () => {
    await current?.close();
    current = undefined;
  });
  const built = (): TestApp => {
    if (!current) throw new Error('useTestApp: the app exists only while a test runs');
    return current;
  };
  return {
    get app() {
      return built().app;
    },
    get store() {
      return built().store;
    },
    get config() {
      return built().config;
    },
    get dataDir() {
      return built().dataDir;
    },
  };
}

export const validContact = {
  PRENOM: 'Marie',
  NOM: 'Dupont',
  EMAIL: 'marie.dupont@example.fr',
  JOB_TITLE: 'Avocate',
  TYPE_BESOIN: 'Attirer,Convertir',
  SERVICE: 'Référencement local',
  DEMANDE: 'Je voudrais apparaître dans les résultats de mon quartier.',
};

export const validSubscribe = { email: 'lea@example.fr', firstName: 'Léa' };

export const validAudit = {
  email: 'paul@example.fr',
  firstName: 'Paul',
  sector: 'btp',
  formData: { 'Combien de chantiers par an ?': 'Une trentaine' },
};
