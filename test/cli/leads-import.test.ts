import { copyFileSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { runLeadgate } from '../helpers/leadgate-cli.ts';
import { recordCall } from '../helpers/test-stores.ts';
import { ObservedProvider } from '../hardening/test-providers.ts';

/*
 * docs/operations.md, « Restore »: a backup restored while its journal is moved aside, then
 * `leadgate leads import <aside>` before the service starts again: the leads received after the
 * backup come back (0 stranded), and nothing delivered after the backup is sent again (0
 * duplicates), counted at the provider over both lives of the service.
 */
let scratch: string;
let t: TestApp | undefined;

afterEach(async () => {
  await t?.close();
  t = undefined;
  rmSync(scratch, { recursive: true, force: true });
});

describe('leadgate leads import after a restore (docs/operations.md)', () => {
  it('brings back the leads received since the backup and sends nothing twice', async () => {
    scratch = mkdtempSync(join(tmpdir(), 'leadgate-import-'));
    const dataDir = join(scratch, 'data');
    const env = { DATA_DIR: dataDir, DELIVERY: 'queued', MAIL_PROVIDER: 'outbox' };
    const notifications: number[] = [];

    /** The service on DATA_DIR, each of its notifications counted. */
    async function serve() {
      let provider: ObservedProvider | undefined;
      t = await buildTestApp({
        env,
        dialect: 'sqlite',
        provider: (config, journal) => (provider = new ObservedProvider(config, journal)),
      });
      const app = t;
      return {
        accept: async (name: string) => {
          const payload = { email: `${name}@example.fr`, firstName: 'Léa' };
          const answer = await app.app.inject({ method: 'POST', url: '/api/subscribe', payload });
          expect(answer.statusCode).toBe(200);
          return (await app.store.list()).at(-1)!.lead.id;
        },
        deliver: (id: string) => app.app.dispatcher.deliverLead(id),
        call: async (id: string) =>
          recordCall(
            app.store,
            (await app.store.find(id))!.lead,
            new Date(),
            undefined,
            'Rappelée après la sauvegarde',
          ),
        stop: async () => {
          notifications.push(provider!.calls);
          await app.close();
          t = undefined;
        },
      };
    }

    const before = await serve();
    await before.deliver(await before.accept('avant'));
    const pendingAtBackup = await before.accept('en-attente');
    const backup = join(scratch, 'leadgate-backup.sqlite');
    expect((await runLeadgate(['backup', backup], env)).code).toBe(0);
    await before.deliver(pendingAtBackup);
    // docs/operations.md, « Restore »: what the team did after the backup comes back too.
    await before.call(pendingAtBackup);
    await before.deliver(await before.accept('apres'));
    await before.accept('jamais-livree');
    await before.stop();

    // The restore, as docs/operations.md says: the journal moved aside, the backup in its place.
    const aside = join(scratch, 'aside');
    mkdirSync(aside);
    for (const suffix of ['', '-wal', '-shm']) {
      const file = join(dataDir, `leadgate.sqlite${suffix}`);
      if (existsSync(file)) renameSync(file, join(aside, `leadgate.sqlite${suffix}`));
    }
    copyFileSync(backup, join(dataDir, 'leadgate.sqlite'));

    const imported = await runLeadgate(['leads', 'import', aside], env);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toContain('2 demande(s) absente(s)');
    // Again: nothing left to bring in.
    expect((await runLeadgate(['leads', 'import', aside], env)).stdout).toContain(
      ' 0 demande(s) absente(s) de ce journal, 0 envoi(s)',
    );

    const after = await serve();
    const answers = await t!.store.answers.list(pendingAtBackup);
    expect(answers.map((answer) => answer.body)).toEqual(['Rappelée après la sauvegarde']);
    expect((await t!.store.work.find(pendingAtBackup))!.work.answeredAt).toEqual(answers[0]!.at);
    for (const entry of await t!.store.list()) await after.deliver(entry.lead.id);
    const statuses = (await t!.store.list()).map((entry) => entry.status);
    await after.stop();

    expect(statuses).toEqual(Array(4).fill('delivered'));
    // Three notifications before the restore, and only the never-delivered lead's after it.
    expect(notifications).toEqual([3, 1]);
  });
});
