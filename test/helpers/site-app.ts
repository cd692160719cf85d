import { afterAll, beforeAll } from 'vitest';
import { buildTestApp, type TestApp } from './app.ts';
import { buildTestSite, DEFAULT_TEST_SITE_URL, type TestSite } from './site.ts';

/**
 * The built site and the app serving it, for a whole test file: the set-up every test of what the
 * site serves would otherwise repeat. `siteUrl` is both the build's and the app's SITE_URL.
 */
export function useSiteApp(siteUrl = DEFAULT_TEST_SITE_URL): {
  readonly site: TestSite;
  readonly t: TestApp;
} {
  let site: TestSite | undefined;
  let t: TestApp | undefined;
  beforeAll(async () => {
    site = await buildTestSite(siteUrl);
    t = await buildTestApp({
      siteDir: site.dir,
      ...(siteUrl !== DEFAULT_TEST_SITE_URL && { env: { SITE_URL: siteUrl } }),
    });
  });
  afterAll(async () => {
    await t?.close();
    site?.remove();
  });
  const built = <T>(value: T | undefined): T => {
    if (!value) throw new Error('useSiteApp: the site exists only while a test runs');
    return value;
  };
  return {
    get site() {
      return built(site);
    },
    get t() {
      return built(t);
    },
  };
}
