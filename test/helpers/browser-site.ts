import type { AddressInfo } from 'node:net';
import { readManifest } from '../../src/http/site-files.ts';
import type { SiteManifest } from '../../src/schemas/site-manifest.ts';
import { buildTestApp, type TestApp } from './app.ts';
import { buildTestSite, type TestSite } from './site.ts';

export interface ServedSite {
  /** `http://127.0.0.1:<port>`: where the browser goes. */
  origin: string;
  manifest: SiteManifest;
  test: TestApp;
  site: TestSite;
  close(): Promise<void>;
}

/**
 * The built site and the API served by the real app on a real socket (port 0), with a temp DATA_DIR,
 * the outbox provider (e-mails kept as .eml files) and the rate limiter off: a browser test sends
 * many forms from one address. `env` adds to the app's environment (a test of the limiter sets it).
 */
export async function serveBuiltSite(env: Record<string, string> = {}): Promise<ServedSite> {
  const site = await buildTestSite();
  const test = await buildTestApp({ siteDir: site.dir, env: { MAIL_PROVIDER: 'outbox', ...env } });
  await test.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = test.app.server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    manifest: readManifest(site.dir),
    test,
    site,
    async close() {
      await test.close();
      site.remove();
    },
  };
}
