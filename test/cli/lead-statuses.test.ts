import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryStatus } from '../../src/cli/delivery-commands.ts';
import { listLeads } from '../../src/cli/leads-commands.ts';
import type { StepOutcome } from '../../src/kernel/lead/deliveries.ts';
import { LEAD_STATUSES, type LeadStatus } from '../../src/kernel/lead/lead-status.ts';
import type { Store } from '../../src/kernel/journal/store.ts';
import { runLeadgate } from '../helpers/leadgate-cli.ts';
import { defaultTestDialect } from '../helpers/postgres-databases.ts';
import {
  acceptLead,
  sharedDatabase,
  subscribeLead,
  type SharedDatabase,
} from '../helpers/test-stores.ts';

/*
 * docs/delivery.md, "Lead status": a lead's status is its worst step's, and `leads list --status`
 * and `leads status` name the same leads. Journal states are made as the dispatcher makes them:
 * steps claimed, then settled with an outcome.
 */
const CRM = { destination: 'crm-contact', provider: 'brevo' };
const MAIL = { destination: 'agency-notification', provider: 'brevo' };
const failure = (at: Date): StepOutcome => ({
  status: 'retrying',
  error: 'UpstreamError: 503',
  nextAttemptAt: new Date(at.getTime() + 60_000),
});
const OUTCOMES: Record<string, (at: Date) => StepOutcome> = {
  done: () => ({ status: 'done', detail: 'ok' }),
  refused: () => ({ status: 'refused', error: 'RefusedError: 550' }),
  retrying: failure,
  dead: () => ({ status: 'dead', error: 'UpstreamError: 503 (30 attempts)' }),
};

let shared: SharedDatabase;
let store: Store;
const expected = new Map<LeadStatus, string[]>(LEAD_STATUSES.map((status) => [status, []]));

/** A lead whose steps end as `outcomes` say (`pending`: never tried). */
async function leadWith(status: LeadStatus, outcomes: Record<string, string>) {
  const lead = subscribeLead(`${status}-${expected.get(status)!.length}@example.fr`);
  const steps = [CRM, MAIL].filter((step) => outcomes[step.destination] !== undefined);
  await acceptLead(store, lead, steps);
  const at = new Date();
  const claimed = await store.deliveries.claim({
    targets: steps,
    now: at,
    leaseUntil: new Date(at.getTime() + 60_000),
    limit: 10,
    leadId: lead.id,
  });
  for (const step of claimed) {
    const outcome = OUTCOMES[outcomes[step.destination]!];
    if (outcome) await store.deliveries.settle(step, outcome(at), at);
  }
  expected.get(status)!.push(lead.id);
}

async function output(command: (out: PassThrough) => Promise<unknown>): Promise<string> {
  const out = new PassThrough();
  let text = '';
  out.on('data', (chunk: Buffer) => (text += chunk.toString()));
  await command(out);
  return text;
}

beforeAll(async () => {
  shared = await sharedDatabase(defaultTestDialect);
  store = await shared.open();
  await leadWith('pending', { 'crm-contact': 'pending', 'agency-notification': 'done' });
  await leadWith('failed', { 'crm-contact': 'retrying', 'agency-notification': 'done' });
  await leadWith('failed', { 'crm-contact': 'retrying', 'agency-notification': 'pending' });
  // One step given up outweighs another still being retried.
  await leadWith('dead', { 'crm-contact': 'dead', 'agency-notification': 'retrying' });
  // Refused for good at one destination: finished, but not plain `delivered`.
  await leadWith('refused', { 'crm-contact': 'refused', 'agency-notification': 'done' });
  await leadWith('delivered', { 'crm-contact': 'done', 'agency-notification': 'done' });
  await leadWith('delivered', {});
});
afterAll(async () => {
  await shared.close();
});

describe('lead statuses: leads list --status and leads status agree (docs/delivery.md)', () => {
  it('each lead is listed under the status of its worst step, and under no other', async () => {
    for (const status of LEAD_STATUSES) {
      const listed = await output((out) => listLeads(shared.config, out, status));
      const ids = [...listed.matchAll(/\b(lead-\d{6}-\w+)/g)].map((match) => match[1]);
      expect(ids.sort(), `leads list --status ${status}`).toEqual(
        [...expected.get(status)!].sort(),
      );
    }
  });

  it('leads status counts the leads per status under the same names', async () => {
    const text = await output((out) => deliveryStatus(shared.config, out));
    const counts = LEAD_STATUSES.map((status) => `${status} ${expected.get(status)!.length}`);
    expect(text).toContain(`Demandes (leads list --status) : ${counts.join(', ')}.`);
    // The steps behind them: the dead lead's retried step still counts as a step being retried.
    expect(text).toMatch(/Total : en attente 2, en reprise 3, abandonnées 1, refusées 1 ;/);
  });

  it('the command line takes --status dead', async () => {
    const run = await runLeadgate(['leads', 'list', '--status', 'dead'], {
      DATA_DIR: shared.config.dataDir,
      ...(shared.config.databaseUrl && { DATABASE_URL: shared.config.databaseUrl }),
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(expected.get('dead')![0]);
    expect(run.stdout.trim().split('\n')).toHaveLength(1);
  }, 60_000);
});
