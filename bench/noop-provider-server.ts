// Diagnostic rung of benchmark 1: the real app (validation, journal, logs) with a provider that
// does nothing, so the results show what the outbox's e-mails cost apart from the rest.
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { loggerOptions } from '../src/http/logging.ts';
import type { Provider } from '../src/providers/provider.ts';
import { createStore } from '../src/store/create-store.ts';

const config = loadConfig();
const store = await createStore(config);
const provider: Provider = {
  name: 'noop',
  deliver: async () => ({ detail: 'noop' }),
  close: async () => {},
};
const app = await buildApp({
  config,
  store,
  provider,
  logger: loggerOptions(process.env.LOG_LEVEL ?? 'info'),
  siteDir: config.distDir,
});
await app.listen({ port: config.port, host: config.host });
process.once('SIGTERM', () => void app.close().then(() => store.close()));
