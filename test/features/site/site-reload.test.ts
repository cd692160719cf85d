import { cpSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildSite, SITE_DIR } from '../../../src/features/site/build.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';

/*
 * docs/site.md "Serving": `leadgate build` swaps a new dist/ in while the server runs; the server
 * notices the swap and serves the new build at once, without a restart.
 */

const root = mkdtempSync(join(tmpdir(), 'leadgate-reload-'));
const content = join(root, 'content');
const dist = join(root, 'dist');
const SITE_URL = 'http://localhost:3000';
let test: TestApp;
let origin: string;

const build = () => buildSite({ siteUrl: SITE_URL, outDir: dist, contentDir: content });

beforeAll(async () => {
  cpSync(join(SITE_DIR, 'content'), content, { recursive: true });
  await build();
  test = await buildTestApp({ siteDir: dist });
  await test.app.listen({ port: 0, host: '127.0.0.1' });
  origin = `http://127.0.0.1:${(test.app.server.address() as AddressInfo).port}`;
}, 120_000);
afterAll(async () => {
  await test?.close();
  rmSync(root, { recursive: true, force: true });
});

/** The site's price page as an assistant reads it over MCP (docs/agents.md), or undefined. */
async function tarifsOverMcp(): Promise<string | undefined> {
  const client = new Client({ name: 'leadgate-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${origin}/mcp`)));
  try {
    const { resources } = await client.listResources();
    const tarifs = resources.find((resource) => resource.uri === `${SITE_URL}/tarifs.md`);
    if (!tarifs) return undefined;
    const { contents } = await client.readResource({ uri: tarifs.uri });
    return contents.map((content) => ('text' in content ? content.text : '')).join('');
  } finally {
    await client.close();
  }
}

/** Asks until `done` holds (the swap is noticed within milliseconds; the bound only stops a hang). */
async function eventually(done: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  await vi.waitFor(async () => expect(await done(), 'the new build was not served').toBe(true), {
    timeout: timeoutMs,
    interval: 100,
  });
}

describe('a rebuild takes effect without a restart (docs/site.md, "Serving")', () => {
  it('serves the new build: a changed page, an added page, a removed one', async () => {
    expect((await fetch(`${origin}/newsletter`)).status).toBe(200);
    const home = join(content, 'index.md');
    writeFileSync(
      home,
      readFileSync(home, 'utf8').replace(/^title: .*$/m, 'title: "Nouvelle page d’accueil"'),
    );
    writeFileSync(
      join(content, 'tarifs.md'),
      '---\ntitle: "Tarifs"\ndescription: "Nos tarifs."\nupdated: "2026-11-26"\n---\n\nNos tarifs.\n',
    );
    unlinkSync(join(content, 'newsletter/index.md'));
    await build();

    await eventually(async () =>
      (await (await fetch(`${origin}/`)).text()).includes('Nouvelle page d’accueil'),
    );
    // Through the socket's fast path and through Fastify (inject) alike.
    expect((await fetch(`${origin}/tarifs`)).status).toBe(200);
    expect((await test.app.inject({ url: '/tarifs' })).statusCode).toBe(200);
    expect((await test.app.inject({ url: '/tarifs.md' })).body).toContain('# Tarifs');
    const redirect = await test.app.inject({ url: '/tarifs/' });
    expect(redirect.statusCode).toBe(301);
    expect(redirect.headers.location).toBe('/tarifs');
    const removed = await fetch(`${origin}/newsletter`);
    expect(removed.status).toBe(404);
    expect(await removed.text()).toContain('<html lang="fr">');
  });

  it('publishes the new build to assistants too: the MCP resources are the new pages', async () => {
    const tarifs = join(content, 'tarifs.md');
    writeFileSync(
      tarifs,
      '---\ntitle: "Tarifs"\ndescription: "Nos tarifs."\nupdated: "2026-11-27"\n---\n\nTarifs revus : 450 € le diagnostic.\n',
    );
    await build();
    await eventually(async () => (await tarifsOverMcp())?.includes('450 € le diagnostic') ?? false);
    const card = (await (await fetch(`${origin}/.well-known/mcp/server-card.json`)).json()) as {
      resources: { uri: string }[];
    };
    expect(card.resources.map((resource) => resource.uri)).toContain(`${SITE_URL}/tarifs.md`);
  });
});
