import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp, type AppDependencies } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createProvider } from '../../src/providers/create-provider.ts';
import { createStore } from '../../src/store/create-store.ts';

/** Like buildTestApp, with the server options tests of issue 4 need (a logger, short timeouts). */
export async function startApp(
  env: Record<string, string>,
  options: Pick<AppDependencies, 'logger' | 'timeouts'> = {},
) {
  const dataDir = mkdtempSync(join(tmpdir(), 'leadgate-hardening-'));
  const config = loadConfig({ DATA_DIR: dataDir, RATE_LIMIT_PER_MINUTE: '0', ...env });
  const store = await createStore(config);
  const provider = createProvider(config);
  const app = await buildApp({ config, store, provider, ...options });
  await app.ready();
  return {
    app,
    store,
    config,
    dataDir,
    async close() {
      await app.close();
      await provider.close();
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
