import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { BrowserContext, Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

declare global {
  interface Window {
    axe?: { run(context?: unknown, options?: unknown): Promise<{ violations: AxeViolation[] }> };
  }
}

/**
 * For axe on what a browser without JavaScript gets: axe needs scripts on, so the site's own script
 * is answered empty and its forms post natively, as with JavaScript off.
 */
export async function withoutSiteScript(context: BrowserContext): Promise<void> {
  await context.route('**/assets/forms.*.js', (route) =>
    route.fulfill({ contentType: 'text/javascript', body: '' }),
  );
}

/**
 * Runs every rule axe runs by default (WCAG 2.x A/AA and best practices) on the page, or on the
 * elements `selector` matches, but the rules `disabled` names (each caller says why); one line per
 * violation, with the elements it found.
 */
export async function axeViolations(
  page: Page,
  selector?: string,
  disabled: readonly string[] = [],
): Promise<string[]> {
  // Loaded into the page only when a check runs (not into every page a test opens), through the
  // DevTools protocol, so the site's strict CSP (no inline script) stays in force during the checks.
  if (!(await page.evaluate(() => window.axe !== undefined))) await page.evaluate(AXE_SOURCE);
  const rules = Object.fromEntries(disabled.map((rule) => [rule, { enabled: false }]));
  const { violations } = await page.evaluate(
    ({ scope, rules }) => window.axe!.run(scope ? { include: [scope] } : document, { rules }),
    { scope: selector, rules },
  );
  return violations.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.help} → ${violation.nodes
        .map((node) => JSON.stringify(node.target))
        .join(', ')}`,
  );
}
