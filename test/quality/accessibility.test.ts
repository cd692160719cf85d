import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium, watchProblems } from '../helpers/browser.ts';
import { serveBuiltSite, type ServedSite } from '../helpers/browser-site.ts';

const AXE_SOURCE = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

declare global {
  interface Window {
    axe: { run(context?: unknown, options?: unknown): Promise<{ violations: AxeViolation[] }> };
  }
}

function describeViolations(violations: AxeViolation[]): string[] {
  return violations.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.help} → ${violation.nodes
        .map((node) => JSON.stringify(node.target))
        .join(', ')}`,
  );
}

describe.skipIf(!hasChromium())('axe-core in Chromium on every page (issue 3 quality bar)', () => {
  let served: ServedSite;
  let browser: Browser;
  let context: BrowserContext;

  beforeAll(async () => {
    [served, browser] = await Promise.all([serveBuiltSite(), launchChromium()]);
    // Mobile width, as Lighthouse and most visitors see it; reflow problems show up here first.
    context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'fr-FR' });
    // An init script goes through the DevTools protocol: the page's strict CSP (no inline script) holds.
    await context.addInitScript({ content: AXE_SOURCE });
  });
  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  it('reports 0 violations (every rule axe runs by default: WCAG 2.x A/AA and best practices)', async () => {
    const paths = [...served.manifest.pages.map((page) => page.path), '/page-qui-n-existe-pas'];
    const found: Record<string, string[]> = {};
    for (const path of paths) {
      const page = await context.newPage();
      const problems = watchProblems(page);
      const response = await page.goto(served.origin + path);
      expect(response?.status(), path).toBe(path.startsWith('/page-qui') ? 404 : 200);
      const { violations } = await page.evaluate(() => window.axe.run(document));
      const messages = [...describeViolations(violations), ...problems];
      if (messages.length) found[path] = messages;
      await page.close();
    }
    expect(found).toEqual({});
  }, 180_000);
});
