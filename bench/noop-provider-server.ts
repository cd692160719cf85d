// Diagnostic rung of benchmark 1: the real server (validation, journal, logs) with a provider that
// does nothing, so the results show what the outbox's e-mails cost apart from the rest.
import { loadConfig } from '../src/kernel/config.ts';
import { startServer } from '../src/server.ts';

await startServer(loadConfig(), {
  name: 'noop',
  destinations: [
    {
      name: 'agency-notification',
      provider: 'noop',
      appliesTo: () => true,
      deliver: async () => 'noop',
    },
  ],
  alertAgency: async () => {},
  close: async () => {},
});
