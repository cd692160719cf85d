import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { truncatedNetwork } from '../../../src/kernel/lead/consent.ts';
import { currentWording } from '../../../src/kernel/schemas/consent.ts';
import { readTables } from '../../helpers/raw-database.ts';
import { expectApiError, postJson } from '../../helpers/api-assertions.ts';
import { useTestApp, validAudit, validContact, validSubscribe } from '../../helpers/app.ts';

const t = useTestApp({}, { each: true });

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

async function onlyLead() {
  const entries = await t.store.list();
  expect(entries).toHaveLength(1);
  return entries[0]!.lead;
}

describe('docs/consent.md: a consent record with every accepted lead', () => {
  it.each([
    ['/api/contact', 'contact', validContact],
    ['/api/subscribe', 'subscribe', validSubscribe],
    ['/api/audit', 'audit', validAudit],
  ] as const)(
    '%s without `consent`: the current wording, channel api, now, the client /24',
    async (path, kind, body) => {
      const before = Date.now();
      const response = await t.app.inject({
        method: 'POST',
        url: path,
        payload: body,
        remoteAddress: '203.0.113.57',
      });
      expect(response.statusCode).toBe(200);
      const lead = await onlyLead();
      const wording = currentWording(kind);
      expect(lead.consent).toMatchObject({
        wordingHash: sha256(wording.text),
        version: wording.version,
        channel: 'api',
        page: null,
        network: '203.0.113.0/24',
      });
      expect(lead.consent!.givenAt.getTime()).toBeGreaterThanOrEqual(before - 1);
      // The declaration is proof about the request, not one of its fields.
      expect(lead.data).not.toHaveProperty('consent');
    },
  );

  it('an agent names the wording version and its channel; an IPv6 client is kept to its /48', async () => {
    const wording = currentWording('subscribe');
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/subscribe',
      payload: {
        ...validSubscribe,
        consent: { version: wording.version, channel: 'agent', page: 'chat:assistant' },
      },
      remoteAddress: '2001:db8:abcd:12::5',
    });
    expect(response.statusCode).toBe(200);
    expect((await onlyLead()).consent).toMatchObject({
      version: wording.version,
      channel: 'agent',
      page: 'chat:assistant',
      network: '2001:db8:abcd::/48',
    });
  });

  it('a site form post is channel form, with the page it was sent from', async () => {
    const wording = currentWording('contact');
    const form = new URLSearchParams({
      ...validContact,
      'consent[version]': wording.version,
    }).toString();
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/contact',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        referer: 'http://localhost:3000/contact?utm=x',
      },
      payload: form,
    });
    expect(response.statusCode).toBe(303);
    expect((await onlyLead()).consent).toMatchObject({
      wordingHash: sha256(wording.text),
      channel: 'form',
      page: '/contact',
      network: '127.0.0.0/24',
    });
  });

  it('the wording is stored once, under the SHA-256 of its text', async () => {
    await postJson(t.app, '/api/contact', validContact);
    await postJson(t.app, '/api/contact', { ...validContact, EMAIL: 'autre@example.fr' });
    const hashes = (await t.store.list()).map((entry) => entry.lead.consent?.wordingHash);
    expect(new Set(hashes).size).toBe(1);
    const rows = (await readTables(t.config)).consent_wordings!.filter(
      (row) => row.hash === hashes[0],
    );
    expect(rows).toHaveLength(1);
    const row = rows[0] as { text: string };
    expect(sha256(row.text)).toBe(hashes[0]);
    expect(row.text).toBe(currentWording('contact').text);
  });

  it('an unknown wording version or an unknown consent property is invalid_field, nothing journaled', async () => {
    const wrongVersion = await postJson(t.app, '/api/contact', {
      ...validContact,
      consent: { version: 'inventée' },
    });
    expect(expectApiError(wrongVersion, 400, 'invalid_field').message).toMatch(/consent/);
    const extra = await postJson(t.app, '/api/audit', {
      ...validAudit,
      consent: { version: currentWording('audit').version, ip: '1.2.3.4' },
    });
    expectApiError(extra, 400, 'invalid_field');
    const notObject = await postJson(t.app, '/api/subscribe', {
      ...validSubscribe,
      consent: 'oui',
    });
    expectApiError(notObject, 400, 'invalid_field');
    expect(await t.store.list()).toHaveLength(0);
  });
});

describe('truncatedNetwork', () => {
  it.each([
    ['192.0.2.200', '192.0.2.0/24'],
    ['10.0.0.1', '10.0.0.0/24'],
    ['255.255.255.255', '255.255.255.0/24'],
    ['::ffff:198.51.100.9', '198.51.100.0/24'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1::/48'],
    ['::1', '::/48'],
    ['not an address', null],
  ])('%s → %s', (address, network) => {
    expect(truncatedNetwork(address)).toBe(network);
  });
});
