import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emailOf } from '../../src/kernel/lead/lead.ts';
import { hasChromium, watchProblems } from '../helpers/browser.ts';
import { useSiteInChromium } from '../helpers/browser-site.ts';

/*
 * docs/api-decisions.md, "Bot trap", in real Chromium: a script that fills every input of the page
 * (the honeypot too) and sends at once lands on the same thank-you page as a person, with and
 * without JavaScript, and its lead is journaled as spam and sent nowhere. A person never meets the
 * trap: it is not in the accessibility tree (the Tab walk is test/quality/accessibility.test.ts).
 */

const chromium = useSiteInChromium();

describe.skipIf(!hasChromium())('the bot trap in Chromium (docs/api-decisions.md)', () => {
  for (const javaScriptEnabled of [true, false]) {
    it(`a bot filling every input and sending at once (${javaScriptEnabled ? 'with' : 'without'} JavaScript): thank-you page, spam, nothing sent`, async () => {
      const context = await chromium.newContext({ javaScriptEnabled, locale: 'fr-FR' });
      const page = await context.newPage();
      const problems = watchProblems(page);
      await page.goto(`${chromium.served.origin}/newsletter`);
      const form = page.locator('form[action="/api/subscribe"]').first();
      const email = `robot-${javaScriptEnabled ? 'js' : 'html'}@exemple.fr`;
      // What a naive bot does: a value in every text input, the boxes ticked, the form sent.
      await form.evaluate((element, address) => {
        for (const input of Array.from(element.querySelectorAll('input'))) {
          if (input.type === 'checkbox') input.checked = true;
          else if (input.type === 'email') input.value = address;
          else if (input.type === 'text') input.value = 'Robot';
        }
      }, email);
      await form.locator('button[type=submit]').click();
      await page.waitForURL(`${chromium.served.origin}/newsletter/merci`, { timeout: 10_000 });

      const entries = (await chromium.served.test.store.list()).filter(
        (entry) => emailOf(entry.lead) === email,
      );
      expect(entries.map((entry) => entry.status)).toEqual(['spam']);
      const outbox = join(chromium.served.test.dataDir, 'outbox');
      const files = existsSync(outbox) ? readdirSync(outbox) : [];
      expect(files.filter((file) => file.includes(entries[0]!.lead.id))).toEqual([]);
      expect(problems).toEqual([]);
    });
  }

  it('a person never meets the trap: not in the accessibility tree', async () => {
    const context = await chromium.newContext({ locale: 'fr-FR' });
    const page = await context.newPage();
    await page.goto(`${chromium.served.origin}/newsletter`);
    const form = page.locator('form[action="/api/subscribe"]').first();
    const tree = await form.ariaSnapshot();
    expect(tree).toContain('Adresse e-mail');
    expect(tree).not.toContain('Laissez ce champ vide');
    // Off-screen, not display:none (which bots skip), and out of the Tab order. (forms.js has taken
    // its name off, to keep it out of the form's WebMCP tool: docs/agents.md.)
    const trap = form.locator('input[data-honeypot]');
    await expect(trap.evaluate((input) => getComputedStyle(input).display)).resolves.not.toBe(
      'none',
    );
    const box = await trap.boundingBox();
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(0);
    await expect(trap.getAttribute('tabindex')).resolves.toBe('-1');
  });
});
