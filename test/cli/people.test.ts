import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { postJson } from '../helpers/api-assertions.ts';
import { buildTestApp, validAudit, validContact, type TestApp } from '../helpers/app.ts';
import { startFakeBrevo, type FakeBrevo } from '../helpers/fake-brevo.ts';
import { runLeadgate, type CliRun } from '../helpers/leadgate-cli.ts';
import { readTables } from '../helpers/raw-database.ts';

let brevo: FakeBrevo;
let t: TestApp;
let env: Record<string, string>;

/** docs/consent.md: `leadgate people …` as an operator runs it, on the database the app wrote. */
function leadgate(args: string[]): Promise<CliRun> {
  return runLeadgate(args, env);
}

const ADDRESS = 'Marie.Dupont@Example.fr';

beforeEach(async () => {
  brevo = await startFakeBrevo();
  const brevoEnv = {
    MAIL_PROVIDER: 'brevo',
    BREVO_API_KEY: 'k',
    BREVO_API_URL: brevo.url,
    BREVO_NEWSLETTER_LIST_ID: '8',
  };
  t = await buildTestApp({ env: brevoEnv });
  env = {
    ...brevoEnv,
    DATA_DIR: t.dataDir,
    ...(t.config.databaseUrl && { DATABASE_URL: t.config.databaseUrl }),
  };
  const sent = [
    postJson(
      t.app,
      '/api/contact',
      { ...validContact, EMAIL: ADDRESS },
      { 'idempotency-key': 'k-1' },
    ),
    postJson(t.app, '/api/subscribe', { email: ADDRESS.toLowerCase(), firstName: 'Marie' }),
    postJson(t.app, '/api/audit', { ...validAudit, email: ADDRESS }),
    postJson(t.app, '/api/audit', { ...validAudit, email: 'someone.else@example.fr' }),
  ];
  for (const response of await Promise.all(sent)) expect(response.statusCode).toBe(200);
  // The subscription confirmed (double opt-in): its confirmation row holds the address too.
  const optIn = brevo.sent.find((mail) => (mail.tags as string[]).includes('leadgate-optin'));
  const link = /\/newsletter\/confirmation\?jeton=[\w.-]+/.exec(String(optIn?.textContent))![0];
  expect((await t.app.inject({ method: 'POST', url: link })).statusCode).toBe(200);
});
afterEach(async () => {
  await t.close();
  await brevo.close();
});

/** Every cell of every table of the database, as text. */
async function everything(): Promise<string> {
  return JSON.stringify(await readTables(t.config));
}

describe('docs/consent.md: leadgate people show / forget', { timeout: 90_000 }, () => {
  it('show: every lead of the address (any case) with its consent wording, as JSON; the log line has no address', async () => {
    const run = await leadgate(['people', 'show', ADDRESS]);
    expect(run.code, run.stderr).toBe(0);
    const file = JSON.parse(run.stdout) as {
      leads: { lead: { kind: string; consent: { wordingHash: string } } }[];
      consentWordings: { hash: string; text: string }[];
      related: Record<string, unknown[]>;
    };
    expect(file.leads.map((entry) => entry.lead.kind).sort()).toEqual([
      'audit',
      'contact',
      'subscribe',
    ]);
    const hashes = file.consentWordings.map((wording) => wording.hash);
    for (const entry of file.leads) expect(hashes).toContain(entry.lead.consent.wordingHash);
    expect(Object.keys(file.related)).toContain('idempotency_keys');
    expect(run.stderr).toMatch(/^people show [0-9a-f]{16} : 3 demande\(s\)/);
    expect(run.stderr.toLowerCase()).not.toContain(ADDRESS.toLowerCase());
  });

  it('forget: no row anywhere holds the address, Brevo was asked to delete it, another person is kept; safe to re-run', async () => {
    expect((await everything()).toLowerCase()).toContain(ADDRESS.toLowerCase());
    const leadIds = (await t.store.people.show(ADDRESS)).leads.map((entry) => entry.lead.id);
    const run = await leadgate(['people', 'forget', ADDRESS]);
    expect(run.code, run.stderr + run.stdout).toBe(0);
    expect(run.stdout).toMatch(/^people forget [0-9a-f]{16} : 3 demande\(s\) effacée\(s\)/);
    // docs/operations.md: the erased leads are named by their ids, never by the address.
    const named = /^demandes effacées : (.+)$/m.exec(run.stdout)?.[1]?.split(' ');
    expect(named?.sort()).toEqual(leadIds.sort());
    expect(run.stdout).toContain('Brevo : contact supprimé.');
    expect((run.stdout + run.stderr).toLowerCase()).not.toContain(ADDRESS.toLowerCase());

    const tables = await everything();
    expect(tables).not.toContain(ADDRESS);
    expect(tables.toLowerCase()).not.toContain(ADDRESS.toLowerCase());
    expect(tables).toContain('someone.else@example.fr');
    const deletes = brevo.requests.filter((request) => request.method === 'DELETE');
    expect(deletes.map((request) => request.path)).toEqual([
      `/contacts/${encodeURIComponent(ADDRESS)}`,
    ]);
    expect(brevo.contacts.has(ADDRESS.toLowerCase())).toBe(false);
    expect(brevo.contacts.has('someone.else@example.fr')).toBe(true);
    // Only the salted hash and the date are kept.
    const forgotten = (await readTables(t.config)).forgotten_people!;
    expect(forgotten).toHaveLength(1);
    expect(forgotten[0]!.reference).toMatch(/^[0-9a-f]{64}$/);

    const again = await leadgate(['people', 'forget', ADDRESS.toLowerCase()]);
    expect(again.code, again.stdout).toBe(0);
    expect(again.stdout).toMatch(/ : 0 demande\(s\) effacée\(s\)/);
    expect(again.stdout).toContain('aucun contact à cette adresse');
    expect((await readTables(t.config)).forgotten_people).toHaveLength(1);
  });
});
