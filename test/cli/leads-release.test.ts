import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { postForm, postJson } from '../helpers/api-assertions.ts';
import { buildTestApp, validAudit, validContact, validSubscribe } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { runLeadgate, type CliRun } from '../helpers/leadgate-cli.ts';
import { subscribeLead } from '../helpers/test-stores.ts';

/*
 * docs/operations.md, « Releasing a lead the bot trap misjudged »: `leadgate leads release <id>`
 * gives a `spam` lead the steps the intake would have planned, makes its address known (spec 2.4),
 * keeps its consent record, and refuses in one line anything else. On the dialect of the run.
 */

let t: TestApp;
let env: Record<string, string>;

beforeEach(async () => {
  // DELIVERY=queued and no dispatcher: what the release plans stays in the journal to be seen.
  t = await buildTestApp({ env: { MAIL_PROVIDER: 'outbox', DELIVERY: 'queued' } });
  env = {
    MAIL_PROVIDER: 'outbox',
    DATA_DIR: t.dataDir,
    ...(t.config.databaseUrl && { DATABASE_URL: t.config.databaseUrl }),
  };
});
afterEach(() => t.close());

const leadgate = (args: string[]): Promise<CliRun> => runLeadgate(args, env);

/** A site form post that fills the honeypot (docs/api-decisions.md, "Bot trap"). */
async function trapped(url: string, fields: Record<string, string>): Promise<string> {
  const answer = await postForm(t.app, url, [...Object.entries(fields), ['website', 'x']], {
    accept: 'application/json',
  });
  expect(answer.statusCode, answer.body).toBe(200);
  const spam = await t.store.list({ statuses: ['spam'] });
  return spam.at(-1)!.lead.id;
}

const destinationsOf = async (id: string) =>
  (await t.store.deliveries.steps(id)).map((step) => `${step.destination} ${step.status}`);

describe('leadgate leads release (docs/operations.md)', { timeout: 300_000 }, () => {
  it('a trapped subscription gets the double opt-in e-mail and the notification, its address becomes known, its consent stays', async () => {
    const id = await trapped('/api/subscribe', validSubscribe);
    const before = await t.store.find(id);

    const run = await leadgate(['leads', 'release', id]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(
      `libérée  ${id}  double-opt-in-email (outbox), agency-notification (outbox) : le serveur (ou leadgate dispatch) la livre.\n`,
    );
    const line = run.stderr.split('\n').find((text) => text.includes('release:'));
    expect(JSON.parse(line!)).toMatchObject({
      leadId: id,
      msg: 'release: spam lead released for delivery',
    });
    expect(run.stderr).not.toContain(validSubscribe.email);

    expect((await t.store.find(id))?.status).toBe('pending');
    // Under double opt-in the list step waits for the person's confirmation (docs/consent.md).
    expect(await destinationsOf(id)).toEqual([
      'agency-notification pending',
      'double-opt-in-email pending',
    ]);
    expect((await t.store.find(id))?.lead.consent).toEqual(before?.lead.consent);

    // Spec 2.4: the address is known now, as if the first request had been let through.
    const again = await postJson(t.app, '/api/subscribe', validSubscribe);
    expect(again.json()).toMatchObject({ success: true, existing: true });

    // The dispatcher delivers it like any lead (here `leads replay`, with the same configuration).
    const replay = await leadgate(['leads', 'replay']);
    expect(replay.code, replay.stderr).toBe(0);
    expect((await t.store.find(id))?.status).toBe('delivered');
    const outbox = join(t.dataDir, 'outbox');
    const mails = readdirSync(outbox).map((file) => readFileSync(join(outbox, file), 'utf8'));
    expect(mails.filter((mail) => mail.includes('/newsletter/confirmation?jeton=')).length).toBe(1);
  });

  it('a trapped contact request gets its confirmation and the notification', async () => {
    const id = await trapped('/api/contact', validContact);
    const run = await leadgate(['leads', 'release', id]);
    expect(run.code, run.stderr).toBe(0);
    expect(await destinationsOf(id)).toEqual([
      'agency-notification pending',
      'confirmation-email pending',
    ]);
  });

  it('refuses in one line, exit 1, an unknown id, a lead that is not spam, a release done twice', async () => {
    expect((await postJson(t.app, '/api/audit', validAudit)).statusCode).toBe(200);
    const [audit] = await t.store.list({ kinds: ['audit'] });
    const id = await trapped('/api/subscribe', validSubscribe);
    expect((await leadgate(['leads', 'release', id])).code).toBe(0);

    const refusals = {
      'no-such-lead': 'Aucune demande no-such-lead dans le journal.\n',
      [audit!.lead.id]:
        `La demande ${audit!.lead.id} est « pending », pas « spam » : rien à libérer.\n`,
      [id]: `La demande ${id} est « pending », pas « spam » : rien à libérer.\n`,
    };
    for (const [target, line] of Object.entries(refusals)) {
      const run = await leadgate(['leads', 'release', target]);
      expect({ code: run.code, stdout: run.stdout, stderr: run.stderr }).toEqual({
        code: 1,
        stdout: '',
        stderr: line,
      });
    }
    expect(await destinationsOf(audit!.lead.id)).toEqual([
      'agency-notification pending',
      'confirmation-email pending',
    ]);
  });

  it('refuses a subscription older than its confirmation link (7 days, docs/consent.md)', async () => {
    const old = subscribeLead('ancien@example.fr', new Date(Date.now() - 8 * 24 * 3600 * 1000));
    await t.store.deliveries.accept({
      lead: old,
      steps: [],
      spam: true,
      idempotency: { bodyKey: `test:${old.id}`, fingerprint: old.id, expiredBefore: new Date(0) },
    });
    const run = await leadgate(['leads', 'release', old.id]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^La demande \S+ est une inscription de plus de 7 jours : .*\n$/);
    expect((await t.store.find(old.id))?.status).toBe('spam');
  });
});
