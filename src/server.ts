import { servedMailIdentity } from './features/site/served-identity.ts';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import type { Config } from './kernel/config.ts';
import { assertDataDirWritable, listenProblem } from './kernel/config/startup-checks.ts';
import { loggerOptions } from './kernel/observability/logging.ts';
import { createProvider } from './providers/create-provider.ts';
import type { Provider } from './features/delivery/provider.ts';
import { startRetention } from './features/privacy/retention.ts';
import { summarizeBacklog } from './features/delivery/backlog.ts';
import type { Store } from './kernel/journal/store.ts';
import { createStore } from './wiring/create-store.ts';
import { createTeamSummaryFor, startTeamSummary } from './wiring/team-summary-setup.ts';

/** Starts the service on config.port and stops it cleanly on SIGTERM/SIGINT (in-flight requests finish). */
export async function startServer(
  config: Config,
  /** Replaces the provider MAIL_PROVIDER picks (the benchmarks' no-op rung). */
  provider?: Provider,
): Promise<FastifyInstance> {
  assertDataDirWritable(config);
  const store = await createStore(config);
  provider ??= createProvider(config, store, servedMailIdentity);
  const app = await buildApp({
    config,
    store,
    provider,
    logger: loggerOptions(config),
    siteDir: config.distDir,
  });
  // docs/consent.md: RETENTION_DAYS applied once a day by the running service.
  const retention = startRetention({
    store,
    days: config.retentionDays,
    auditDays: config.workspace.auditRetentionDays,
    onRun: ({ people, leadIds }) => {
      // Ids, never addresses (docs/operations.md): one line per lead, so a search for it finds this.
      for (const leadId of leadIds) {
        app.log.child({ leadId }).info('retention: lead erased, its person past RETENTION_DAYS');
      }
      if (people > 0) app.log.info(`retention: ${people} person(s) past RETENTION_DAYS erased`);
    },
    onError: (error) => app.log.error({ err: error }, 'retention run failed'),
  });
  const backlog = watchBacklog(app, store);
  // docs/workspace.md, « Le point du matin »: every node checks; the journal lets one send it.
  const summary = createTeamSummaryFor(config, store, provider, servedMailIdentity, app.log);
  const stopSummary = summary ? startTeamSummary(summary, app.log) : () => {};
  app.addHook('onClose', async () => {
    retention.stop();
    stopSummary();
    clearInterval(backlog);
    await app.dispatcher.stop();
    await provider.close();
    await store.close();
  });
  // Node's close() only drops connections idle at that instant: an answer finished during shutdown
  // says `Connection: close`, or its keep-alive socket would hold the exit for keepAliveTimeout.
  let stopping = false;
  app.addHook('onSend', async (_request, reply) => {
    if (stopping) reply.header('connection', 'close');
  });
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await app.close();
    throw listenProblem(error, config) ?? error;
  }
  // docs/delivery.md: every node delivers what any node accepted.
  app.dispatcher.start();

  // docs/reliability.md: stop accepting, let in-flight requests finish (each is bounded by PROVIDER_TIMEOUT_MS),
  // then close the journal. A hung close still ends, so an orchestrator's restart is never stuck.
  const shutdown = async (signal: string) => {
    app.log.info(`${signal} received: finishing in-flight requests`);
    stopping = true;
    const deadline = setTimeout(() => {
      app.log.error('shutdown took too long: exiting with requests still open');
      process.exit(1);
    }, config.mail.timeoutMs + 5_000);
    deadline.unref();
    await app.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
  return app;
}

/**
 * docs/delivery.md: while steps wait, one log line a minute says how many and how old the oldest is,
 * so an operator's log alert can fire (README: alert threshold).
 */
function watchBacklog(app: FastifyInstance, store: Store): NodeJS.Timeout {
  const timer = setInterval(() => {
    store.deliveries
      .backlog()
      .then((lines) => {
        const summary = summarizeBacklog(lines, new Date());
        if (summary.oldestAgeSeconds === null) return;
        app.log.warn(
          { backlog: summary, destinations: lines },
          `delivery backlog: ${summary.pending} pending, ${summary.retrying} retrying, ${summary.dead} dead; oldest undelivered lead ${summary.oldestAgeSeconds} s old`,
        );
      })
      .catch((error: unknown) => app.log.error({ err: error }, 'delivery backlog: unreadable'));
  }, 60_000);
  timer.unref();
  return timer;
}
