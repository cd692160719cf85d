import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import type { Config } from './config.ts';
import { loggerOptions } from './http/logging.ts';
import { createProvider } from './providers/create-provider.ts';
import { MisconfiguredProvider } from './providers/misconfigured-provider.ts';
import type { Provider } from './providers/provider.ts';
import { createStore } from './store/create-store.ts';

/** Starts the service on config.port and stops it cleanly on SIGTERM/SIGINT (in-flight requests finish). */
export async function startServer(
  config: Config,
  /** Replaces the provider MAIL_PROVIDER picks (the benchmarks' no-op rung). */
  provider: Provider = createProvider(config),
): Promise<FastifyInstance> {
  const store = await createStore(config);
  const app = await buildApp({
    config,
    store,
    provider,
    logger: loggerOptions(process.env.LOG_LEVEL ?? 'info'),
    siteDir: config.distDir,
  });
  if (provider instanceof MisconfiguredProvider) {
    app.log.error(
      `MAIL_PROVIDER=${provider.name} is incomplete (${provider.problem}): requests are validated and journaled, valid ones answered 500 server_error`,
    );
  }
  app.addHook('onClose', async () => {
    await provider.close();
    await store.close();
  });
  // Node's close() only drops connections idle at that instant: an answer finished during shutdown
  // says `Connection: close`, or its keep-alive socket would hold the exit for keepAliveTimeout.
  let stopping = false;
  app.addHook('onSend', async (_request, reply) => {
    if (stopping) reply.header('connection', 'close');
  });
  await app.listen({ port: config.port, host: config.host });

  // Issue 4: stop accepting, let in-flight requests finish (each is bounded by PROVIDER_TIMEOUT_MS),
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
