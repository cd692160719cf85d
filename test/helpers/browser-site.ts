import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { readManifest } from '../../src/kernel/http/site/site-files.ts';
import type { SiteManifest } from '../../src/kernel/schemas/site-manifest.ts';
import { buildTestApp, type TestApp } from './app.ts';
import { workerChromium } from './browser.ts';
import { buildTestSite, type TestSite } from './site.ts';

export interface ServedSite {
  /** `http://127.0.0.1:<port>`: where the browser goes. */
  origin: string;
  manifest: SiteManifest;
  test: TestApp;
  site: TestSite;
  /**
   * Moves the service's clock past the bot trap's minimum fill time (docs/api-decisions.md, "Bot
   * trap"), as a person filling the form takes it, instead of waiting for it.
   */
  passFillTime(): void;
  close(): Promise<void>;
}

/**
 * The built site and the API served by the real app on a real socket (port 0), with a temp DATA_DIR,
 * the outbox provider (e-mails kept as .eml files) and the rate limiter off: a browser test sends
 * many forms from one address. `env` adds to the app's environment (a test of the limiter sets it).
 */
export async function serveBuiltSite(env: Record<string, string> = {}): Promise<ServedSite> {
  const site = await buildTestSite();
  let aheadMs = 0;
  const test = await buildTestApp({
    siteDir: site.dir,
    env: { MAIL_PROVIDER: 'outbox', ...env },
    now: () => new Date(Date.now() + aheadMs),
  });
  await test.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = test.app.server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    manifest: readManifest(site.dir),
    test,
    site,
    passFillTime() {
      aheadMs += test.config.limits.formMinFillMs;
    },
    async close() {
      await test.close();
      site.remove();
    },
  };
}

/**
 * The built site served for a whole test file, in the worker's Chromium (workerChromium); each test
 * opens its context with `newContext`, closed after the test (or when the test opens another). `env`
 * as for `serveBuiltSite`, or a function read when the server starts (an address known only once an
 * earlier hook ran).
 */
export function useSiteInChromium(
  env: Record<string, string> | (() => Record<string, string>) = {},
) {
  let served: ServedSite | undefined;
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  beforeAll(async () => {
    [served, browser] = await Promise.all([
      serveBuiltSite(typeof env === 'function' ? env() : env),
      workerChromium(),
    ]);
  });
  afterEach(async () => {
    await context?.close();
    context = undefined;
  });
  afterAll(async () => {
    await context?.close();
    context = undefined;
    await served?.close();
  });
  return {
    get served(): ServedSite {
      return served!;
    },
    async newContext(options?: BrowserContextOptions): Promise<BrowserContext> {
      await context?.close();
      context = await browser!.newContext(options);
      return context;
    },
    /**
     * A page `width` px wide (docs/workspace.md: 390 then 1,366), signed in with `cookie`
     * (`name=value`, from staff-session.ts's signIn).
     */
    async staffPage(width: number, cookie: string): Promise<Page> {
      await context?.close();
      context = await browser!.newContext({ viewport: { width, height: 900 } });
      const [name, value] = cookie.split('=') as [string, string];
      await context.addCookies([{ name, value, url: served!.origin }]);
      return context.newPage();
    },
  };
}
