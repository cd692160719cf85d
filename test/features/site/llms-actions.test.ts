import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEAD_KINDS } from '../../../src/kernel/schemas/lead-kinds.ts';
import { postJson } from '../../helpers/api-assertions.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';
import { buildTestSite, type TestSite } from '../../helpers/site.ts';

/* docs/agents.md: each of the four tasks takes /llms.txt and one POST. */
const SITE_URL = 'https://www.agence-web.fr';
let site: TestSite;
let t: TestApp;
let llms: string;
beforeAll(async () => {
  site = await buildTestSite(SITE_URL);
  t = await buildTestApp({ siteDir: site.dir, env: { SITE_URL } });
  llms = readFileSync(join(site.dir, 'llms.txt'), 'utf8');
});
afterAll(async () => {
  await t.close();
  site.remove();
});

/** "…, `POST https://…/api/x` :" then a ```json block: the free text before the link lists. */
function examples(): { url: string; body: string }[] {
  return [...llms.matchAll(/`POST (https?:\/\/\S+?)` :\n\n```json\n([\s\S]*?)\n```/g)].map(
    (match) => ({ url: match[1]!, body: match[2]! }),
  );
}

describe('/llms.txt lets an agent act in one request', () => {
  it('holds one complete JSON body per action, before the first H2 section', () => {
    const found = examples();
    expect(found.map(({ url }) => url.slice(SITE_URL.length))).toEqual([
      '/api/contact',
      '/api/contact',
      '/api/subscribe',
      '/api/audit',
      '/api/privacy',
    ]);
    const firstSection = llms.indexOf('\n## ');
    for (const { body } of found) expect(llms.indexOf(body)).toBeLessThan(firstSection);
    // The short request is the diagnostic form; the audit is for one sector.
    expect(JSON.parse(found[1]!.body)).toHaveProperty('TOOL_SOURCE');
    expect(JSON.parse(found[3]!.body)).toMatchObject({ sector: 'btp' });
  });

  it('every example is accepted as is by the API (200)', async () => {
    for (const { url, body } of examples()) {
      const response = await postJson(t.app, url.slice(SITE_URL.length), body);
      expect(response.statusCode, `${url} ${response.body}`).toBe(200);
    }
  });

  it('an assistant copying a lead example is recorded as an assistant: consent channel agent (docs/consent.md)', async () => {
    const leads = await t.store.list();
    expect(leads.length).toBeGreaterThanOrEqual(4);
    for (const entry of leads) expect(entry.lead.consent).toMatchObject({ channel: 'agent' });
  });

  it('links each action to the Markdown of its page, and names the MCP tools and server card', () => {
    const actions = llms.slice(llms.indexOf('## Agir pour une personne'));
    const links = [...actions.matchAll(/^- \[[^\]]*POST [^\]]*\]\(([^)]+)\)/gm)].map((m) => m[1]!);
    expect(links).toHaveLength(5);
    for (const url of links) expect(url).toMatch(/\.md$/);
    // The privacy request's own page, with its form (docs/consent.md).
    expect(links).toContain(`${SITE_URL}/vos-donnees.md`);
    expect(llms).toContain('`request_privacy_action`');
    for (const endpoint of LEAD_KINDS) expect(llms).toContain(`\`${endpoint.tool.name}\``);
    expect(llms).toContain(`${SITE_URL}/mcp`);
    expect(llms).toContain(`(${SITE_URL}/.well-known/mcp/server-card.json)`);
  });

  it('lists every entry once: no URL and no name twice', () => {
    const entries = [...llms.matchAll(/^- \[([^\]]+)\]\(([^)]+)\)/gm)];
    const urls = entries.map((entry) => entry[2]);
    const names = entries.map((entry) => entry[1]);
    expect(new Set(urls).size).toBe(urls.length);
    expect(new Set(names).size).toBe(names.length);
  });
});
