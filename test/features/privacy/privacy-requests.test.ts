import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { postJson } from '../../helpers/api-assertions.ts';
import { buildTestApp, validContact, type TestApp } from '../../helpers/app.ts';
import { outboxMails } from '../../helpers/outbox.ts';

/*
 * docs/consent.md, "Requests about one's data": POST /api/privacy and the MCP tool
 * request_privacy_action journal the request in the register and e-mail a signed, single-use link;
 * nothing is done until the person presses the button of that link's page. The answer is the same
 * whether or not the address is known.
 */
let t: TestApp;
afterEach(async () => {
  await t?.close();
});

const PERSON = 'marie.dupont@example.fr';

/** The outbox's messages of one role, parsed as a mail client would. */
async function outboxTexts(role: string): Promise<string[]> {
  return (await outboxMails(t.dataDir, role)).map((mail) => mail.text ?? '');
}

const linkIn = (text: string) =>
  /\/vos-donnees\/confirmation\?jeton=[A-Za-z0-9._-]+/.exec(text)![0];

async function journaledLeads() {
  return (await t.store.people.show(PERSON)).leads.length;
}

describe('an erasure request', () => {
  it('REST: 200, a link e-mailed; GET shows the button and erases nothing; POST erases the person', async () => {
    t = await buildTestApp();
    expect(
      (await postJson(t.app, '/api/contact', { ...validContact, EMAIL: PERSON })).statusCode,
    ).toBe(200);
    expect(await journaledLeads()).toBe(1);

    const answer = await postJson(t.app, '/api/privacy', { kind: 'erasure', email: PERSON });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ success: true, confirmation: 'sent' });
    const [mail] = await outboxTexts('privacy-link');
    const link = linkIn(mail!);

    const shown = await t.app.inject({ method: 'GET', url: link });
    expect(shown.statusCode).toBe(200);
    expect(shown.body).toMatch(/Confirmez l’effacement de vos données/);
    expect(shown.headers['cache-control']).toBe('no-store');
    expect(await journaledLeads()).toBe(1);

    const done = await t.app.inject({ method: 'POST', url: link });
    expect(done.statusCode).toBe(200);
    expect(done.body).toMatch(/Vos données sont effacées/);
    expect(await journaledLeads()).toBe(0);
    // The register keeps the request, its reference and dates, no longer the address.
    const [entry] = await t.store.privacyRequests.list();
    expect(entry).toMatchObject({ kind: 'erasure', channel: 'api', status: 'done', address: null });
    expect(entry!.reference).toMatch(/^[0-9a-f]{16,}/);
    // Single use.
    expect((await t.app.inject({ method: 'POST', url: link })).statusCode).toBe(410);
  });

  it('MCP (the SDK client): the tool answers as REST; the link confirmed, the person is gone', async () => {
    t = await buildTestApp();
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    await postJson(t.app, '/api/subscribe', { email: PERSON, firstName: 'Marie' });
    expect(await journaledLeads()).toBe(1);
    const client = new Client({ name: 'leadgate-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('request_privacy_action');
      const result = (await client.callTool({
        name: 'request_privacy_action',
        arguments: { kind: 'erasure', email: PERSON, message: 'Par mon assistant.' },
      })) as CallToolResult;
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual({ success: true, confirmation: 'sent' });
      const refused = (await client.callTool({
        name: 'request_privacy_action',
        arguments: { kind: 'everything', email: PERSON },
      })) as CallToolResult;
      expect(refused.isError).toBe(true);
    } finally {
      await client.close();
    }
    const [entry] = await t.store.privacyRequests.list();
    expect(entry).toMatchObject({ channel: 'mcp', status: 'pending', note: 'Par mon assistant.' });
    const [mail] = await outboxTexts('privacy-link');
    expect((await t.app.inject({ method: 'POST', url: linkIn(mail!) })).statusCode).toBe(200);
    expect(await journaledLeads()).toBe(0);
    expect(await t.store.newsletter.isSubscribed(PERSON)).toBe(false);
  });

  it('unconfirmed: nothing changes; an unknown address gets the very same answer', async () => {
    t = await buildTestApp();
    await postJson(t.app, '/api/contact', { ...validContact, EMAIL: PERSON });
    const known = await postJson(t.app, '/api/privacy', { kind: 'erasure', email: PERSON });
    const unknown = await postJson(t.app, '/api/privacy', {
      kind: 'erasure',
      email: 'nobody@example.fr',
    });
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.json()).toEqual(known.json());
    expect(await journaledLeads()).toBe(1);
    const statuses = (await t.store.privacyRequests.list()).map((entry) => entry.status);
    expect(statuses).toEqual(['pending', 'pending']);
    // A tampered link does nothing either.
    const [mail] = await outboxTexts('privacy-link');
    const tampered = linkIn(mail!).slice(0, -1) + (linkIn(mail!).endsWith('A') ? 'B' : 'A');
    expect((await t.app.inject({ method: 'POST', url: tampered })).statusCode).toBe(400);
    expect(await journaledLeads()).toBe(1);
  });
});

describe('access and unsubscribe', () => {
  it('access confirmed: an e-mail with what is held; a second request within 24 h: already_sent', async () => {
    t = await buildTestApp();
    await postJson(t.app, '/api/contact', { ...validContact, EMAIL: PERSON });
    await postJson(t.app, '/api/privacy', { kind: 'access', email: PERSON });
    const again = await postJson(t.app, '/api/privacy', { kind: 'access', email: PERSON });
    expect(again.json()).toEqual({ success: true, confirmation: 'already_sent' });
    const links = await outboxTexts('privacy-link');
    expect(links).toHaveLength(1);
    await t.app.inject({ method: 'POST', url: linkIn(links[0]!) });
    const [report] = await outboxTexts('privacy-answer');
    expect(report).toContain(validContact.DEMANDE);
    expect(await journaledLeads()).toBe(1);
  });
});

describe('requests of different kinds for one address (docs/consent.md: one cap per kind)', () => {
  it('unsubscribe, then erasure: two links, each doing its own request; the erasure works', async () => {
    t = await buildTestApp();
    await postJson(t.app, '/api/subscribe', { email: PERSON, firstName: 'Marie' });
    await postJson(t.app, '/api/contact', { ...validContact, EMAIL: PERSON });
    const unsubscribe = await postJson(t.app, '/api/privacy', {
      kind: 'unsubscribe',
      email: PERSON,
    });
    expect(unsubscribe.json()).toEqual({ success: true, confirmation: 'sent' });
    const erasure = await postJson(t.app, '/api/privacy', { kind: 'erasure', email: PERSON });
    expect(erasure.json()).toEqual({ success: true, confirmation: 'sent' });
    // The same kind again within 24 hours: already_sent, and no third e-mail.
    const again = await postJson(t.app, '/api/privacy', { kind: 'erasure', email: PERSON });
    expect(again.json()).toEqual({ success: true, confirmation: 'already_sent' });

    const links = await outboxTexts('privacy-link');
    expect(links).toHaveLength(2);
    const pages = await Promise.all(
      links.map(async (text) => (await t.app.inject({ method: 'GET', url: linkIn(text) })).body),
    );
    expect(pages.filter((page) => /Me désinscrire/.test(page))).toHaveLength(1);
    expect(pages.filter((page) => /Effacer mes données/.test(page))).toHaveLength(1);

    const erasureLink = linkIn(links[pages.findIndex((page) => /Effacer mes données/.test(page))]!);
    const done = await t.app.inject({ method: 'POST', url: erasureLink });
    expect(done.statusCode).toBe(200);
    expect(done.body).toMatch(/Vos données sont effacées/);
    expect(await journaledLeads()).toBe(0);
  });

  it('an access request sent by anyone does not hold back the person’s erasure', async () => {
    t = await buildTestApp();
    await postJson(t.app, '/api/privacy', { kind: 'access', email: PERSON });
    const erasure = await postJson(t.app, '/api/privacy', { kind: 'erasure', email: PERSON });
    expect(erasure.json()).toEqual({ success: true, confirmation: 'sent' });
    expect(await outboxTexts('privacy-link')).toHaveLength(2);
  });
});
