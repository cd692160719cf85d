import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CONFIRMATION_DOMAIN_PER_HOUR } from '../../src/kernel/lead/confirmation-cap.ts';
import { postJson } from '../helpers/api-assertions.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';

/*
 * docs/reliability.md, "Hostile input", and docs/consent.md: POST /api/privacy e-mails a link to
 * an address nobody has verified, so it is under the lead endpoints' caps (one link per mailbox and
 * 24 hours, CONFIRMATION_DOMAIN_PER_HOUR e-mails per recipient domain), and its per-client rate is
 * one counter for the API, the site's form and the MCP tool.
 */
let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const privacyLinks = (app: TestApp) =>
  readdirSync(join(app.dataDir, 'outbox')).filter((file) => file.endsWith('-privacy-link.eml'));

const MCP_HEADERS = { accept: 'application/json, text/event-stream' };
const toolCall = (id: number, email: string) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'request_privacy_action', arguments: { kind: 'access', email } },
});

describe('privacy requests to one domain', () => {
  it('30 requests for 30 mailboxes of one domain send at most CONFIRMATION_DOMAIN_PER_HOUR links, and say so', async () => {
    t = await buildTestApp();
    const answers = [];
    for (let i = 0; i < 30; i++) {
      const answer = await postJson(t.app, '/api/privacy', {
        kind: 'access',
        email: `personne${i}@client-cible.fr`,
      });
      expect(answer.statusCode).toBe(200);
      answers.push(answer.json().confirmation);
    }
    expect(privacyLinks(t)).toHaveLength(CONFIRMATION_DOMAIN_PER_HOUR);
    expect(answers.filter((answer) => answer === 'sent')).toHaveLength(
      CONFIRMATION_DOMAIN_PER_HOUR,
    );
    // Honest: nothing went to these mailboxes, so not « already sent ».
    expect(answers.slice(CONFIRMATION_DOMAIN_PER_HOUR)).toEqual(
      Array(30 - CONFIRMATION_DOMAIN_PER_HOUR).fill('not_sent'),
    );
    // Every request is still in the register, for the team to see.
    expect(await t.store.privacyRequests.list()).toHaveLength(30);
    // Another domain is not held by this one's cap.
    const other = await postJson(t.app, '/api/privacy', {
      kind: 'access',
      email: 'marie@ailleurs.fr',
    });
    expect(other.json().confirmation).toBe('sent');
  });
});

describe('one per-client counter for REST, forms and MCP', () => {
  it('RATE_LIMIT_PER_MINUTE privacy requests a client in all, whichever way it comes', async () => {
    t = await buildTestApp({ env: { RATE_LIMIT_PER_MINUTE: '4' } });
    const statuses: string[] = [];
    for (let i = 0; i < 2; i++) {
      const rest = await postJson(t.app, '/api/privacy', {
        kind: 'access',
        email: `rest${i}@example.fr`,
      });
      statuses.push(`rest ${rest.statusCode}`);
    }
    for (let i = 0; i < 3; i++) {
      const mcp = await postJson(t.app, '/mcp', toolCall(i, `mcp${i}@example.fr`), MCP_HEADERS);
      statuses.push(`mcp ${mcp.body.includes('rate_limited') ? 'rate_limited' : mcp.statusCode}`);
    }
    const last = await postJson(t.app, '/api/privacy', {
      kind: 'access',
      email: 'rest-last@example.fr',
    });
    statuses.push(`rest ${last.statusCode}`);
    expect(statuses).toEqual([
      'rest 200',
      'rest 200',
      'mcp 200',
      'mcp 200',
      'mcp rate_limited',
      'rest 429',
    ]);
    expect(last.json().error.code).toBe('rate_limited');
    expect(await t.store.privacyRequests.list()).toHaveLength(4);
  });
});
