import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brevoStandInEnv, startFakeBrevo, type FakeBrevo } from '../helpers/fake-brevo.ts';
import { runLeadgate } from '../helpers/leadgate-cli.ts';

/*
 * docs/brevo.md, « leadgate config check »: a cheap read of the Brevo account (attributes, lists,
 * senders) before the first lead, saying in French what is missing, with exit code 1; exit 0 when
 * the account holds everything leadgate will send.
 */
const ATTRIBUTES = [
  'PRENOM',
  'NOM',
  'SMS',
  'JOB_TITLE',
  'TYPE_BESOIN',
  'SERVICE',
  'DEMANDE',
  'TOOL_SOURCE',
];

let fake: FakeBrevo;
let dataDir: string;

beforeAll(async () => {
  fake = await startFakeBrevo('k');
  dataDir = mkdtempSync(join(tmpdir(), 'leadgate-config-check-'));
});
afterAll(async () => {
  await fake.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const check = (env: Record<string, string> = {}) =>
  runLeadgate(['config', 'check'], {
    DATA_DIR: dataDir,
    ...brevoStandInEnv(fake),
    MAIL_FROM: 'Agence <bonjour@agence.fr>',
    BREVO_CONTACT_LIST_ID: '7',
    ...env,
  });

describe('leadgate config check (docs/brevo.md)', () => {
  it('names each missing attribute, list and the unvalidated sender, in French, exit 1', async () => {
    fake.account.attributes = new Set(ATTRIBUTES.filter((name) => name !== 'SERVICE'));
    fake.account.lists = new Set([8]);
    fake.account.senders = new Set(['quelqu.un@autre.fr']);
    const run = await check();
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toContain('Attribut de contact « SERVICE » absent : le créer dans Brevo');
    expect(run.stdout).not.toContain('« NOM »');
    expect(run.stdout).toContain('BREVO_CONTACT_LIST_ID=7 : aucune liste n’a ce numéro');
    expect(run.stdout).not.toContain('BREVO_NEWSLETTER_LIST_ID');
    expect(run.stdout).toContain('MAIL_FROM : l’expéditeur bonjour@agence.fr n’est pas validé');
    // Only reads: nothing was created, sent or changed.
    expect(fake.requests.every((request) => request.method === 'GET')).toBe(true);
  }, 120_000);

  it('exit 0 when the account holds everything (a sender of an authenticated domain too)', async () => {
    fake.account.attributes = new Set(ATTRIBUTES);
    fake.account.lists = new Set([7, 8]);
    fake.account.senders = new Set();
    fake.account.domains = new Set(['agence.fr']);
    const run = await check();
    expect(run.stdout).toContain('le compte a les attributs, les listes et l’expéditeur');
    expect(run.code, run.stderr).toBe(0);
  }, 120_000);

  it('a key Brevo refuses is one line, exit 1', async () => {
    const run = await check({ BREVO_API_KEY: 'mauvaise' });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('BREVO_API_KEY : Brevo refuse la clé');
    expect(run.stdout).not.toContain('mauvaise');
  }, 120_000);
});
