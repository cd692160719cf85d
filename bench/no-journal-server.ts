// Diagnostic rung of benchmark 1: what the accept path costs apart from its durability and its log
// lines. The real app (Fastify, its hooks, validation, the intake's fingerprint, id and consent
// record) with a journal that acknowledges each lead without writing it and logs at `warn` (no line
// per request), and no destination. No journal or logging design can make the accept path cheaper
// than this row (docs/performance.md, "The accept path").
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/kernel/config.ts';
import { loggerOptions } from '../src/kernel/observability/logging.ts';
import { createStore } from '../src/wiring/create-store.ts';
import { NO_DESTINATION_PROVIDER } from './lib/no-destination-provider.ts';

const config = loadConfig({ ...process.env, LOG_LEVEL: 'warn' });
const store = await createStore(config);
store.deliveries.accept = async ({ lead }) => ({
  accepted: 'new',
  leadId: lead.id,
  existing: false,
});
// buildApp rather than startServer, which opens a store of its own: this one's journal is replaced.
const app = await buildApp({
  config,
  store,
  provider: NO_DESTINATION_PROVIDER,
  logger: loggerOptions(config),
  siteDir: config.distDir,
});
await app.listen({ port: config.port, host: config.host });
