import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENCY, postalAddressLine } from '../../../src/features/site/agency.ts';
import { DEFAULT_PRIVACY } from '../../../src/features/site/privacy-notice.ts';
import { SECTORS } from '../../../src/kernel/schemas/sectors.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';
import { buildTestSite, DEFAULT_TEST_SITE_URL, type TestSite } from '../../helpers/site.ts';

/*
 * docs/site.md "Tarifs" and docs/agents.md: every fact a person reads on the HTML pages (each price,
 * the retention period, the publisher, the contact) is stated the same in the page's Markdown, in
 * /llms-full.txt and in the MCP resources an assistant reads, all taken from site/agency.yaml and
 * the deployment's settings.
 */

let site: TestSite;
let t: TestApp;
let base: string;
let client: Client;
beforeAll(async () => {
  site = await buildTestSite();
  t = await buildTestApp({ siteDir: site.dir });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  client = new Client({ name: 'facts-parity', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
});
afterAll(async () => {
  await client?.close();
  await t?.close();
  site?.remove();
});

/** The words as a reader gets them: no tags, entities read, any apostrophe or space alike. */
function words(text: string): string {
  return text
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;|&#x27;|&apos;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/[’‘]/g, "'")
    .replace(/[\s\u00a0\u202f]+/g, ' ');
}

async function get(path: string, accept?: string): Promise<string> {
  const response = await fetch(`${base}${path}`, accept ? { headers: { accept } } : {});
  expect(response.status, path).toBe(200);
  return words(await response.text());
}

async function mcpResource(path: string): Promise<string> {
  const uri = `${DEFAULT_TEST_SITE_URL}${path}`;
  const { contents } = await client.readResource({ uri });
  return words((contents[0] as { text: string }).text);
}

/** A page's HTML, its Markdown at its own URL and by negotiation, and its MCP resource if it has one. */
async function representations(path: string, resource: boolean) {
  const markdownUrl = path === '/' ? '/index.md' : `${path}.md`;
  return {
    [`${path} (HTML)`]: await get(path),
    [`${markdownUrl}`]: await get(markdownUrl),
    [`${path} (Accept: text/markdown)`]: await get(path, 'text/markdown'),
    ...(resource && { [`MCP ${markdownUrl}`]: await mcpResource(markdownUrl) }),
  };
}

interface Fact {
  fact: string;
  /** Its words, in this order; between them only spaces and punctuation (a card, a list, a table). */
  parts: string[];
  /** The pages that state it; the MCP resource of those marked true. */
  pages: Record<string, boolean>;
}

const escape = (text: string) => words(text).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const patternOf = (parts: string[]) => new RegExp(parts.map(escape).join('[\\s:*.,]*'));

/** Each price next to its service's name, on the pages site/agency.yaml says state it. */
const PRICE_FACTS: Fact[] = AGENCY.prices.map((range) => ({
  fact: `price of « ${range.service} »`,
  parts: [range.service, range.price],
  pages: {
    '/': false,
    '/tarifs': true,
    ...Object.fromEntries((range.services ?? []).map((page) => [`/services/${page}`, true])),
    ...(range.services?.length && { '/services': true }),
    ...Object.fromEntries((range.sectors ?? []).map((sector) => [`/secteurs/${sector}`, false])),
    ...(range.sectors?.length && { '/secteurs': false }),
  },
}));

const { legal, contact, publicationDirector } = AGENCY;
const legalNotice = { '/mentions-legales': true };
const FACTS: Fact[] = [
  ...PRICE_FACTS,
  {
    fact: 'retention period',
    parts: [`${DEFAULT_PRIVACY.retentionDays.toLocaleString('fr-FR')} jours`],
    pages: { '/politique-de-confidentialite': true },
  },
  { fact: 'publisher', parts: [legal.companyName], pages: legalNotice },
  { fact: 'publisher’s SIRET', parts: [legal.siret], pages: legalNotice },
  { fact: 'publication director', parts: [publicationDirector.name], pages: legalNotice },
  {
    fact: 'contact address',
    parts: [postalAddressLine(legal.address)],
    pages: { '/': false, ...legalNotice },
  },
  { fact: 'contact phone', parts: [contact.phoneDisplay], pages: { '/': false, ...legalNotice } },
  { fact: 'contact e-mail', parts: [contact.email], pages: { '/': false, ...legalNotice } },
];

describe('the same facts in the HTML, the Markdown, llms-full.txt and MCP', () => {
  it('every sector’s audit and every service page has a price to compare', () => {
    const priced = (key: 'sectors' | 'services') =>
      AGENCY.prices.flatMap((range) => range[key] ?? []);
    expect(new Set(priced('sectors'))).toEqual(new Set(SECTORS));
    expect(priced('services').length).toBeGreaterThanOrEqual(4);
  });

  it.each(FACTS)('$fact', async ({ parts, pages }) => {
    const expected = patternOf(parts);
    const seen: Record<string, string> = { '/llms-full.txt': await get('/llms-full.txt') };
    for (const [path, resource] of Object.entries(pages)) {
      Object.assign(seen, await representations(path, resource));
    }
    for (const [where, content] of Object.entries(seen)) {
      expect(content, `${where} should state « ${parts.join(' : ')} »`).toMatch(expected);
    }
  });

  it('lists the prices, the privacy notice and the legal notice among the MCP resources', async () => {
    const { resources } = await client.listResources();
    const uris = resources.map((resource) => resource.uri);
    for (const path of ['/tarifs.md', '/politique-de-confidentialite.md', '/mentions-legales.md']) {
      expect(uris).toContain(`${DEFAULT_TEST_SITE_URL}${path}`);
    }
  });
});
