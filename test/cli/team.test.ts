import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { runLeadgate } from '../helpers/leadgate-cli.ts';
import { postForm, PASSWORD, signIn } from '../features/staff/staff-session.ts';

let test: TestApp | undefined;
let dataDir: string | undefined;
afterEach(async () => {
  await test?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  test = dataDir = undefined;
});

/**
 * docs/workspace-security.md, "Signing in the first time": the first admin comes from the command
 * line.
 */
describe('leadgate team add', () => {
  it('prints a single-use invitation link that makes an admin who can sign in', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'leadgate-team-'));
    // The command writes into the journal the server reads (PostgreSQL in the postgres project).
    test = await buildTestApp({ env: { DATA_DIR: dataDir } });
    const run = await runLeadgate(['team', 'add', 'Patron@Agence.fr', '--admin'], {
      DATA_DIR: dataDir,
      SITE_URL: 'http://localhost:3000',
      ...(test.config.databaseUrl && { DATABASE_URL: test.config.databaseUrl }),
    });
    expect(run.code, run.stderr).toBe(0);
    const link = /http:\/\/localhost:3000\/equipe\/invitation\?jeton=[A-Za-z0-9_-]{43}/.exec(
      run.stdout,
    )?.[0];
    expect(link, run.stdout).toBeDefined();
    expect(run.stdout).toContain('patron@agence.fr (administrateur)');
    // Staff-facing times in Paris time, as a French person writes them (never UTC ISO).
    expect(run.stdout).toMatch(
      /valable une fois jusqu’au \d{1,2}(er)? \p{L}+ \d{4} à \d{1,2}\u00a0h\u00a0\d\d \(heure de Paris\) :/u,
    );
    const token = new URL(link!).searchParams.get('jeton')!;
    const set = { jeton: token, password: PASSWORD, confirmation: PASSWORD };
    expect((await postForm(test.app, '/equipe/invitation', set)).statusCode).toBe(303);
    // docs/workspace-security.md, "Passwords": OWASP's scrypt setting, stored in the hash.
    const account = await test.store.staff.accountByEmail('patron@agence.fr');
    expect(account?.passwordHash).toMatch(/^scrypt\$32768\$8\$3\$/);
    const { cookie } = await signIn(test.app, 'patron@agence.fr');
    expect((await test.app.inject({ url: '/equipe/equipe', headers: { cookie } })).statusCode).toBe(
      200,
    );
    const trail = await test.store.staff.auditTrail({ limit: 10, action: 'invite' });
    expect(trail[0]?.actor).toBe('leadgate team add');
  }, 180_000);

  it('refuses an address that is not one', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'leadgate-team-'));
    expect((await runLeadgate(['db', 'migrate'], { DATA_DIR: dataDir })).code).toBe(0);
    const run = await runLeadgate(['team', 'add', 'pas-une-adresse'], { DATA_DIR: dataDir });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Adresse e-mail invalide');
  }, 120_000);
});
