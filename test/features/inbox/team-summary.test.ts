import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import PostalMime from 'postal-mime';
import { afterEach, describe, expect, it } from 'vitest';
import { mailIdentity } from '../../../src/features/site/mail-identity.ts';
import { loadConfig, type Config } from '../../../src/kernel/config.ts';
import { forgetPerson } from '../../../src/features/privacy/forget-person.ts';
import type { Lead } from '../../../src/kernel/lead/lead.ts';
import { SILENT_LOG } from '../../../src/features/delivery/lead-log.ts';
import type { Provider } from '../../../src/features/delivery/provider.ts';
import type { SpamReason } from '../../../src/kernel/lead/spam-reason.ts';
import type { Store } from '../../../src/kernel/journal/store.ts';
import type { MailMessage } from '../../../src/kernel/mail/mail-message.ts';
import { createProvider } from '../../../src/providers/create-provider.ts';
import { createTeamSummaryFor } from '../../../src/wiring/team-summary-setup.ts';
import { validAudit, validContact, validSubscribe } from '../../helpers/app.ts';
import { defaultTestDialect } from '../../helpers/postgres-databases.ts';
import {
  holdAsSpam,
  acceptLead,
  recordCall,
  sharedDatabase,
  type SharedDatabase,
} from '../../helpers/test-stores.ts';

/*
 * docs/workspace.md, « Le point du matin »: once a business day at TEAM_SUMMARY_TIME (Paris), one
 * e-mail to AGENCY_EMAIL lists the leads not yet « en cours », the answer due first on top, the
 * overdue ones apart, and what waits in « À vérifier »; two nodes on one journal send it once, a
 * failed sending is retried, weekends and public holidays have none. The clock is moved, never
 * waited for; this file runs on both journals.
 */

const SITE = 'https://agence.example';
/** A Paris wall time of November–December 2026 (UTC+1) as an instant. */
const paris = (month: number, day: number, hour: number, minute = 0) =>
  new Date(Date.UTC(2026, month - 1, day, hour - 1, minute));

let clock = paris(11, 26, 8, 0);
let database: SharedDatabase | undefined;
afterEach(async () => {
  await database?.close();
  database = undefined;
});

/** The provider MAIL_PROVIDER picks (the outbox), with every summary it is handed counted. */
function counted(provider: Provider, sent: MailMessage[], failures: { next: number }): Provider {
  return {
    name: provider.name,
    destinations: provider.destinations,
    alertAgency: (alert, signal) => provider.alertAgency(alert, signal),
    close: () => provider.close(),
    async sendMail(message, ref, signal) {
      if (failures.next > 0) {
        failures.next -= 1;
        throw new Error('relais SMTP injoignable');
      }
      sent.push(message as MailMessage);
      return provider.sendMail!(message, ref, signal);
    },
  };
}

async function node(config: Config, sent: MailMessage[], failures = { next: 0 }) {
  const store = await database!.open();
  const provider = counted(createProvider(config, store, mailIdentity()), sent, failures);
  const summary = createTeamSummaryFor(
    config,
    store,
    provider,
    mailIdentity(),
    SILENT_LOG,
    () => clock,
  );
  return { store, summary: summary!, failures };
}

let sequence = 0;
function lead(kind: Lead['kind'], receivedAt: Date, data: Record<string, unknown>): Lead {
  sequence += 1;
  return { kind, id: `point-${sequence}`, receivedAt, data } as Lead;
}

async function held(store: Store, reason: SpamReason) {
  const spam = lead('subscribe', paris(11, 25, 9), { ...validSubscribe, firstName: 'Pressée' });
  await holdAsSpam(store, spam, reason);
}

async function start(env: Partial<Config['workspace']> = {}) {
  database = await sharedDatabase(defaultTestDialect);
  const config: Config = {
    ...database.config,
    siteUrl: SITE,
    workspace: { ...database.config.workspace, summaryAt: 8 * 60 + 30, ...env },
  };
  return config;
}

describe('the team’s daily summary (docs/workspace.md, « Le point du matin »)', () => {
  it('is sent once at its time by two nodes, lists the waiting leads due first, and counts « À vérifier »', async () => {
    const config = await start();
    const sent: MailMessage[] = [];
    const [a, b] = [await node(config, sent), await node(config, sent)];
    // Due Wednesday 16:00 (late by Thursday morning), Friday 16:00, and Monday 30 at 14:00.
    const late = lead('contact', paris(11, 23, 10), {
      ...validContact,
      PRENOM: 'Léon',
      NOM: 'Tard',
    });
    const soon = lead('audit', paris(11, 25, 10), validAudit);
    const later = lead('contact', paris(11, 25, 17), {
      ...validContact,
      PRENOM: 'Zoé',
      EMAIL: 'zoe@example.fr',
    });
    // Léon's second request: one entry for Léon, both requests in it.
    const leonAgain = lead('audit', paris(11, 25, 12), {
      ...validAudit,
      email: validContact.EMAIL,
      firstName: 'Léon',
      lastName: 'Tard',
    });
    const started = lead('contact', paris(11, 24, 10), { ...validContact, PRENOM: 'Déjà' });
    for (const each of [later, started, soon, late, leonAgain]) await acceptLead(a.store, each);
    await acceptLead(a.store, lead('subscribe', paris(11, 25, 11), validSubscribe));
    // Answered by phone: its promise is kept, it is no longer listed.
    await recordCall(a.store, started, paris(11, 24, 11));
    await held(a.store, 'too_fast');
    await held(a.store, 'honeypot');

    clock = paris(11, 26, 8, 29);
    await Promise.all([a.summary.tick(), b.summary.tick()]);
    expect(sent).toHaveLength(0);
    clock = paris(11, 26, 8, 30);
    await Promise.all([a.summary.tick(), b.summary.tick()]);
    clock = paris(11, 26, 9, 0);
    await Promise.all([a.summary.tick(), b.summary.tick()]);
    expect(sent).toHaveLength(1);

    const [message] = sent;
    expect(message!.to.address).toBe(config.mail.agencyEmail);
    expect(message!.subject).toBe(
      'Le point du jeudi 26 novembre : 4 demandes attendent une réponse, dont 1 en retard',
    );
    const text = message!.text;
    const order = [
      `${SITE}/equipe?q=${encodeURIComponent(validContact.EMAIL)}`,
      ...[soon, later].map((each) => `${SITE}/equipe/prospects/${each.id}`),
    ].map((url) => text.indexOf(url));
    expect(order.every((at) => at > 0)).toBe(true);
    expect([...order].sort((x, y) => x - y)).toEqual(order);
    expect(text).not.toContain(started.id);
    expect(text).toContain('En retard (1)');
    // One entry per person, the name in bold, each request on its line.
    expect(text).toContain(
      'Léon Tard\nContact, Référencement local : reçue le 23 novembre 2026 à 10\u00a0h\u00a000, en retard depuis le 25 novembre 2026 à 16\u00a0h\u00a000.\nAudit, Artisans et entreprises du BTP : reçue le 25 novembre 2026 à 12\u00a0h\u00a000,',
    );
    expect(text.match(/Léon Tard/g)).toHaveLength(1);
    expect(message!.html).toContain('<strong>Léon Tard</strong>');
    expect(text).toContain(
      'réponse due avant le 27 novembre 2026 à 16\u00a0h\u00a000, encore 16\u00a0h\u00a000 ouvrées',
    );
    expect(text).toContain('Audit, Artisans et entreprises du BTP');
    expect(text).toContain(
      '2 demandes retenues par le piège à robots attendent dans « À vérifier », dont 1 envoyée trop vite',
    );
    expect(text).toContain(`${SITE}/equipe/a-verifier`);
    expect(message!.html).toContain(`href="${SITE}/equipe/prospects/${soon.id}"`);

    // The outbox's file: one message, an HTML part and a text part.
    const outbox = join(database!.config.dataDir, 'outbox');
    // Named by its day, once.
    const files = readdirSync(outbox).filter((file) => file.endsWith('-team-summary.eml'));
    expect(files).toEqual(['2026-11-26-team-summary.eml']);
    const parsed = await PostalMime.parse(readFileSync(join(outbox, files[0]!)));
    expect(parsed.html).toContain('Le point du jeudi 26 novembre');
    expect(parsed.text).toContain(`${SITE}/equipe/prospects/${soon.id}`);

    // docs/consent.md: the summary names people, so erasing one of them removes its copy; erasing
    // a person it does not name leaves it.
    const erase = async (address: string) => {
      const provider = createProvider(config, a.store, mailIdentity());
      await forgetPerson({ store: a.store, provider, address, timeoutMs: 5_000 });
    };
    await erase(validSubscribe.email);
    expect(readdirSync(outbox).filter((file) => file.endsWith('-team-summary.eml'))).toHaveLength(
      1,
    );
    await erase(validContact.EMAIL);
    expect(readdirSync(outbox).filter((file) => file.endsWith('-team-summary.eml'))).toEqual([]);
  });

  it('skips weekends and public holidays, and retries a failed sending until it is sent', async () => {
    const config = await start();
    const sent: MailMessage[] = [];
    const a = await node(config, sent, { next: 1 });
    for (const day of [paris(11, 28, 10), paris(11, 29, 10), paris(12, 25, 10)]) {
      clock = day;
      await a.summary.tick();
    }
    expect(sent).toHaveLength(0);

    // Monday 30 November: the relay fails once, the next round after the retry delay sends it.
    clock = paris(11, 30, 8, 31);
    await a.summary.tick();
    expect(sent).toHaveLength(0);
    expect(a.failures.next).toBe(0);
    clock = paris(11, 30, 9, 0);
    await a.summary.tick();
    await a.summary.tick();
    expect(sent.map((message) => message.subject)).toEqual([
      'Le point du lundi 30 novembre : aucune demande en attente',
    ]);
    expect(sent[0]!.text).toContain('Rien n’attend dans « À vérifier ».');
  });

  it('is never sent after business hours because the server started late', async () => {
    const config = await start();
    const sent: MailMessage[] = [];
    // Friday 27 November, 19:40: the server starts after BUSINESS_HOURS' 18:00 close.
    clock = paris(11, 27, 19, 40);
    const a = await node(config, sent);
    await a.summary.tick();
    clock = paris(11, 27, 23, 59);
    await a.summary.tick();
    expect(sent).toHaveLength(0);
    // Monday 30 at its time: sent.
    clock = paris(11, 30, 8, 30);
    await a.summary.tick();
    expect(sent.map((message) => message.subject)).toEqual([
      'Le point du lundi 30 novembre : aucune demande en attente',
    ]);
  });

  it('is not planned at all when TEAM_SUMMARY_TIME is off', async () => {
    expect(loadConfig({ TEAM_SUMMARY_TIME: '07:45' }).workspace.summaryAt).toBe(7 * 60 + 45);
    expect(loadConfig({}).workspace.summaryAt).toBe(8 * 60 + 30);
    const config = await start({
      summaryAt: loadConfig({ TEAM_SUMMARY_TIME: 'off' }).workspace.summaryAt,
    });
    const store = await database!.open();
    const provider = createProvider(config, store, mailIdentity());
    expect(createTeamSummaryFor(config, store, provider, mailIdentity(), SILENT_LOG)).toBe(
      undefined,
    );
    await provider.close();
  });
});
