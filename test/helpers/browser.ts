import { chromium, type Browser, type ConsoleMessage, type Page } from 'playwright-core';
import { hasTool } from './tools.ts';

/** docs/quality.md: Debian's Chromium, never a downloaded browser (.ci/run installs the `chromium` package). */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * docs/quality.md, « Browser »: the tests run Blink in Debian's headless shell of the same Chromium
 * release (the `chromium-headless-shell` package, what Playwright itself runs headless), which loads
 * a page for about half the CPU of the full browser's headless mode; the screenshot scripts and
 * Lighthouse keep the full browser.
 */
export const TEST_BROWSER_PATH = '/usr/bin/chromium-headless-shell';

/** The flags docs/quality.md prescribes: headless, no sandbox (root in CI), nothing that calls the network. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export function hasChromium(): boolean {
  return hasTool(TEST_BROWSER_PATH, ['--version']);
}

/** A browser of its own, for the screenshot scripts. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

const WORKER_BROWSER = Symbol.for('leadgate.test.chromium');
type WithBrowser = { [WORKER_BROWSER]?: Promise<Browser> };

/**
 * docs/quality.md, « How the suite runs »: one Chromium per test worker, shared by the test files it
 * runs, each test in a fresh context (its own cookies, storage and viewport), which it closes. A
 * launch costs seconds on the loaded machine, a context milliseconds. The browser outlives the
 * files, so none closes it: Playwright stops it when the worker exits. Kept on `globalThis`, which a
 * file that reloads its modules (vi.resetModules) does not reset, so a worker never starts two.
 */
export function workerChromium(): Promise<Browser> {
  const holder = globalThis as WithBrowser;
  let browser = holder[WORKER_BROWSER];
  if (!browser) {
    browser = chromium.launch({ executablePath: TEST_BROWSER_PATH, args: CHROMIUM_ARGS });
    holder[WORKER_BROWSER] = browser;
    // A crashed browser is launched again by the next file instead of failing every one after it.
    void browser.then(
      (launched) =>
        launched.on('disconnected', () => {
          if (holder[WORKER_BROWSER] === browser) delete holder[WORKER_BROWSER];
        }),
      () => {
        if (holder[WORKER_BROWSER] === browser) delete holder[WORKER_BROWSER];
      },
    );
  }
  return browser;
}

/**
 * Collects what the browser reports as broken on a page: CSP violations (Chromium logs them as console
 * errors, with JavaScript on or off), uncaught script errors, failed or refused requests. An error answer a test provokes on purpose
 * (a 400 from /api/) is passed over by `expected`.
 */
export function watchProblems(
  page: Page,
  expected: (url: string, status: number) => boolean = () => false,
): string[] {
  const problems: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() !== 'error') return;
    // The 404 page's own status is logged too; a missing asset is caught below by its response.
    if (message.text().startsWith('Failed to load resource')) return;
    problems.push(`console: ${message.text()}`);
  });
  page.on('response', (response) => {
    if (response.request().isNavigationRequest() || response.status() < 400) return;
    if (expected(response.url(), response.status())) return;
    problems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => {
    // A navigation that replaces the page aborts its pending requests: not a fault of the page.
    if (request.failure()?.errorText === 'net::ERR_ABORTED') return;
    problems.push(`request failed: ${request.url()} ${request.failure()?.errorText ?? ''}`);
  });
  return problems;
}
