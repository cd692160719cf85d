// Diagnostic rung of benchmark 1: the accept path alone. The real server (validation, journal with
// its group commit, logs) with a provider that has no destination, so a lead gets no step and the
// dispatcher has nothing to run beside the load: what accepting costs when delivery happens
// elsewhere (`leadgate dispatch` on another core or node, docs/delivery.md).
import { loadConfig } from '../src/kernel/config.ts';
import { startServer } from '../src/server.ts';
import { NO_DESTINATION_PROVIDER } from './lib/no-destination-provider.ts';

await startServer(loadConfig(), NO_DESTINATION_PROVIDER);
