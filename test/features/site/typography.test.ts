import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM_MESSAGES, FORM_REFUSALS } from '../../../src/kernel/schemas/form-messages.ts';
import { typeset, typesetText } from '../../../src/features/site/typeset.ts';
import { buildTestSite, type TestSite } from '../../helpers/site.ts';

let site: TestSite;

beforeAll(async () => {
  site = await buildTestSite();
});
afterAll(() => site?.remove());

/** What a person reads on a page: text between tags, without code, scripts and comments. */
function readText(html: string): string[] {
  return html
    .replace(/<(pre|code|script|style|textarea)\b[^>]*>[\s\S]*?<\/\1>/g, ' ')
    .split(/<[^>]+>/)
    .filter((text) => text.trim() !== '');
}

const FAULTS: [string, RegExp][] = [
  ['a straight apostrophe', /\p{L}(?:'|&#39;)\p{L}/u],
  ['a breaking space before ; : ! ? »', / [;:!?»]/],
  ['a breaking space after «', /« /],
];

describe('French typography of the pages (docs/site.md, "Design")', () => {
  it('every text of every built page, templates, forms and thank-you pages included', () => {
    const pages = readdirSync(site.dir, { recursive: true })
      .map(String)
      .filter((file) => file.endsWith('.html'));
    expect(pages).toEqual(expect.arrayContaining(['index.html', 'newsletter/merci/index.html']));
    const faults = pages.flatMap((file) =>
      readText(readFileSync(join(site.dir, file), 'utf8')).flatMap((text) =>
        FAULTS.filter(([, fault]) => fault.test(text)).map(
          ([name]) => `${file}: ${name} in "${text.trim()}"`,
        ),
      ),
    );
    expect(faults).toEqual([]);
  });

  it('the form messages the server and forms.js show', () => {
    for (const message of [...Object.values(FORM_MESSAGES), ...Object.values(FORM_REFUSALS)]) {
      for (const [name, fault] of FAULTS)
        expect(fault.test(message), `${name}: ${message}`).toBe(false);
    }
  });

  it('leaves code, attributes and typed text alone', () => {
    const html =
      '<p title="a : b">l\'agence : « oui » ?</p><code>x : y</code><textarea>l\'a : b</textarea>';
    expect(typeset(html)).toBe(
      '<p title="a : b">l’agence\u00a0: «\u00a0oui\u00a0»\u00a0?</p><code>x : y</code><textarea>l\'a : b</textarea>',
    );
    expect(typesetText('24 heures, 5 000 €')).toBe('24\u00a0heures, 5\u00a0000\u00a0€');
  });
});
