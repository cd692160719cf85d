import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_STATUS } from '../../src/http/error-catalog.ts';
import { LEAD_ENDPOINTS } from '../../src/schemas/endpoints.ts';
import { ERROR_CODES } from '../../src/schemas/responses.ts';
import { buildTestSite, type TestSite } from '../helpers/site.ts';

let site: TestSite;
let markdown: string;
let html: string;

beforeAll(async () => {
  site = await buildTestSite();
  markdown = readFileSync(join(site.dir, 'developers.md'), 'utf8');
  html = readFileSync(join(site.dir, 'developers/index.html'), 'utf8');
});
afterAll(() => site?.remove());

interface Property {
  maxLength?: number;
}

/** The Markdown table row of a field: "| `NAME` | type | required | max | description |". */
function rowOf(text: string, name: string): string[] | undefined {
  const line = text.split('\n').find((row) => row.startsWith(`| \`${name}\` |`));
  return line?.split(' | ');
}

describe('/developers reference, generated from src/schemas (issue 3)', () => {
  it('keeps the written content first, then the generated reference', () => {
    const written = readFileSync(
      new URL('../../site/content/developers.md', import.meta.url),
      'utf8',
    );
    const firstHeading = /^## .+$/m.exec(written)?.[0] ?? '';
    expect(markdown.indexOf(firstHeading)).toBeGreaterThan(0);
    expect(markdown.indexOf(firstHeading)).toBeLessThan(markdown.indexOf('### POST /api/contact'));
  });

  it('lists every field of every endpoint with its bound and whether it is required', () => {
    for (const endpoint of LEAD_ENDPOINTS) {
      const schema = endpoint.schema as unknown as {
        properties: Record<string, Property>;
        required: string[];
      };
      expect(markdown).toContain(`### POST ${endpoint.path}`);
      for (const [name, property] of Object.entries(schema.properties)) {
        const row = rowOf(markdown, name);
        expect(row, `${endpoint.path} ${name}`).toBeDefined();
        expect(row?.[3], `${endpoint.path} ${name}`).toBe(String(property.maxLength ?? '—'));
        if (schema.required.includes(name)) expect(row?.[2]).toBe('oui');
        expect(html).toContain(`<code>${name}</code>`);
      }
    }
    expect(rowOf(markdown, 'NOM')?.[2]).toBe('oui, sauf si `TOOL_SOURCE` est présent');
    expect(rowOf(markdown, 'sector')?.[1]).toContain('`avocats`, `boutiques`, `btp`');
  });

  it('lists every error code with its HTTP status', () => {
    for (const code of ERROR_CODES) {
      expect(markdown).toContain(`| ${ERROR_STATUS[code]} | \`${code}\` |`);
      expect(html).toContain(`<td><code>${code}</code></td>`);
    }
  });

  it('gives a curl and a fetch example for each endpoint, with valid JSON bodies', () => {
    for (const endpoint of LEAD_ENDPOINTS) {
      expect(markdown).toContain(`curl -s http://localhost:3000${endpoint.path} \\`);
      expect(markdown).toContain(`fetch('http://localhost:3000${endpoint.path}'`);
    }
    for (const match of markdown.matchAll(/-d '([\s\S]*?)'\n```/g)) {
      expect(() => JSON.parse(match[1] as string)).not.toThrow();
    }
  });
});
