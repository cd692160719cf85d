import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_STATUS } from '../../../src/kernel/schemas/responses.ts';
import { LEAD_KINDS } from '../../../src/kernel/schemas/lead-kinds.ts';
import { PRIVACY_ACTION } from '../../../src/kernel/schemas/privacy-request.ts';
import { ERROR_CODES } from '../../../src/kernel/schemas/responses.ts';
import { buildTestSite, type TestSite } from '../../helpers/site.ts';

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

/** The reference section of one endpoint: from its heading to the next heading of that level. */
function sectionOf(path: string): string {
  const start = markdown.indexOf(`### POST ${path}\n`);
  expect(start, path).toBeGreaterThan(0);
  const end = markdown.indexOf('\n### ', start + 1);
  return markdown.slice(start, end === -1 ? undefined : end);
}

/** The Markdown table row of a field in one endpoint's section: "| `NAME` | type | required | max | description |". */
function rowOf(path: string, name: string): string[] | undefined {
  const line = sectionOf(path)
    .split('\n')
    .find((row) => row.startsWith(`| \`${name}\` |`));
  return line?.split(' | ');
}

/** Every POST the reference documents: the lead kinds and the request about one's data. */
const ACTIONS = [...LEAD_KINDS, PRIVACY_ACTION];

describe('/developers reference, generated from src/kernel/schemas (docs/site.md)', () => {
  it('keeps the written content first, then the generated reference', () => {
    const written = readFileSync(
      new URL('../../../site/content/developers.md', import.meta.url),
      'utf8',
    );
    const firstHeading = /^## .+$/m.exec(written)?.[0] ?? '';
    expect(markdown.indexOf(firstHeading)).toBeGreaterThan(0);
    expect(markdown.indexOf(firstHeading)).toBeLessThan(markdown.indexOf('### POST /api/contact'));
  });

  it('lists every field of every endpoint with its bound and whether it is required', () => {
    for (const endpoint of ACTIONS) {
      const schema = endpoint.schema as unknown as {
        properties: Record<string, Property>;
        required: string[];
      };
      expect(markdown).toContain(`### POST ${endpoint.path}`);
      for (const [name, property] of Object.entries(schema.properties)) {
        const row = rowOf(endpoint.path, name);
        expect(row, `${endpoint.path} ${name}`).toBeDefined();
        expect(row?.[3], `${endpoint.path} ${name}`).toBe(String(property.maxLength ?? '—'));
        if (schema.required.includes(name)) expect(row?.[2]).toBe('oui');
        expect(html).toContain(`<code>${name}</code>`);
      }
    }
    expect(rowOf('/api/contact', 'NOM')?.[2]).toBe('oui, sauf si `TOOL_SOURCE` est présent');
    expect(rowOf('/api/audit', 'sector')?.[1]).toContain('`avocats`, `boutiques`, `btp`');
  });

  it('lists every error code with its HTTP status', () => {
    for (const code of ERROR_CODES) {
      expect(markdown).toContain(`| ${ERROR_STATUS[code]} | \`${code}\` |`);
      expect(html).toContain(`<td><code>${code}</code></td>`);
    }
  });

  it('gives a curl and a fetch example for each endpoint, with valid JSON bodies', () => {
    for (const endpoint of ACTIONS) {
      const section = sectionOf(endpoint.path);
      expect(section).toContain(`curl -s http://localhost:3000${endpoint.path} \\`);
      expect(section).toContain(`fetch('http://localhost:3000${endpoint.path}'`);
      const bodies = [...section.matchAll(/-d '([\s\S]*?)'\n```/g)].map((match) =>
        JSON.parse((match[1] as string).replaceAll("'\\''", "'")),
      );
      expect(bodies.length, endpoint.path).toBeGreaterThan(0);
      const required = (endpoint.schema as unknown as { required: string[] }).required;
      for (const body of bodies) for (const field of required) expect(body).toHaveProperty(field);
    }
  });

  it('says how POST /api/privacy answers and where its form is, and names its MCP tool', () => {
    const section = sectionOf('/api/privacy');
    expect(section).toContain('`{"success": true, "confirmation": "sent"}`');
    expect(section).toContain('(http://localhost:3000/vos-donnees)');
    expect(markdown).toContain('`request_privacy_action` (comme `POST /api/privacy`)');
    expect(markdown).toContain('`/vos-donnees/merci`');
  });
});
