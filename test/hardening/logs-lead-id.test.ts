import { PassThrough, Writable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { replayLeads } from '../../src/cli/delivery-commands.ts';
import { createLogger, loggerOptions } from '../../src/kernel/observability/logging.ts';
import { buildTestApp, validContact, type TestApp } from '../helpers/app.ts';
import {
  startWebhookReceiver,
  TEST_WEBHOOK_SECRET,
  type WebhookReceiver,
} from '../helpers/webhook-receiver.ts';

/*
 * docs/operations.md, "Logs": every line about a lead carries its `leadId` (bound by a pino child
 * logger), from the request that accepted it to its last delivery attempt, and personal data stays
 * masked on every one of them.
 */
const EMAIL = 'marie.dupont@example.fr';
const PHONE = '0612345678';

type LogRecord = Record<string, unknown> & { msg?: string; leadId?: string };

/** Everything logged, line by line, as an operator's collector receives it. */
function captureLogs() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  const records = () => lines.map((line) => JSON.parse(line) as LogRecord);
  return { lines, stream, records };
}

async function eventually(check: () => boolean, what: string, ms = 30_000): Promise<void> {
  await vi.waitFor(() => expect(check(), `still waiting for ${what}`).toBe(true), {
    timeout: ms,
    interval: 50,
  });
}

let harness: TestApp | undefined;
let receiver: WebhookReceiver | undefined;
afterEach(async () => {
  await harness?.close();
  await receiver?.close();
  harness = receiver = undefined;
});

async function start(logs: ReturnType<typeof captureLogs>) {
  receiver = await startWebhookReceiver();
  harness = await buildTestApp({
    env: {
      DELIVERY: 'queued',
      WEBHOOK_URLS: receiver.url,
      WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
      WEBHOOK_ALLOW_PRIVATE: 'true',
      DELIVERY_MAX_ATTEMPTS: '2',
      DELIVERY_RETRY_BASE_MS: '50',
      DELIVERY_RETRY_MAX_MS: '100',
    },
    logger: loggerOptions({ logLevel: 'info', secrets: [] }, logs.stream),
    dispatch: true,
  });
  return harness;
}

const withMessage = (records: LogRecord[], msg: string) =>
  records.filter((record) => record.msg === msg);

describe('the lead id in every log line about a lead (docs/operations.md)', () => {
  it('accept → delivered e-mails, a webhook failing → retried → dead → alert → replayed: every line names the lead', async () => {
    const logs = captureLogs();
    const { app, store } = await start(logs);
    receiver!.answer = 500;

    const response = await app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: { ...validContact, EMAIL, SMS: PHONE },
      headers: { 'x-request-id': 'trace-lead-1' },
    });
    expect(response.statusCode).toBe(200);
    const [entry] = await store.list();
    const leadId = entry!.lead.id;

    await eventually(
      () =>
        withMessage(logs.records(), 'delivery: dead step listed in an alert to the agency').length >
        0,
      'the alert about the dead webhook step',
    );
    receiver!.answer = 200;
    const replayed = await replayLeads(
      harness!.config,
      new PassThrough(),
      undefined,
      createLogger({ logLevel: 'info', secrets: [] }, logs.stream),
    );
    expect(replayed).toEqual({ delivered: 1, failed: 0 });

    const records = logs.records();
    const all = logs.lines.join('\n');
    // docs/delivery.md, « Alerts »: an alert is about a cause, which may hold several leads; each of
    // its dead steps is logged with its lead.
    expect(
      records.filter((record) => record.leadId !== leadId && record.alert === undefined),
    ).toEqual([]);

    const completed = withMessage(records, 'request completed');
    expect(completed).toHaveLength(1);
    expect(completed[0]).toMatchObject({ reqId: 'trace-lead-1', leadId });
    const destinationsOf = (msg: string) =>
      withMessage(records, msg)
        .map((record) => record.destination)
        .sort();
    const webhook = (await store.deliveries.steps(leadId)).find((step) =>
      step.destination.startsWith('webhook:'),
    )!.destination;
    expect(destinationsOf('delivery: step done')).toEqual(
      ['agency-notification', 'confirmation-email', webhook].sort(),
    );
    expect(destinationsOf('delivery: step failed, retried later')).toEqual([webhook]);
    expect(destinationsOf('delivery: step dead, given up')).toEqual([webhook]);
    expect(withMessage(records, 'replay: lead delivered')).toHaveLength(1);

    expect(all).not.toContain(EMAIL);
    expect(all).not.toContain(PHONE);
  });

  it('a confirmation held back by the cap is logged with the id of the lead it concerns', async () => {
    const logs = captureLogs();
    const { app, store } = await start(logs);
    for (const DEMANDE of ['Une première demande.', 'Une seconde demande, autre texte.']) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/contact',
        payload: { ...validContact, EMAIL, DEMANDE },
      });
      expect(response.statusCode).toBe(200);
    }
    const entries = await store.list();
    expect(entries).toHaveLength(2);

    // The cap is decided when the confirmation step runs: whichever of the two runs second is held
    // back (two workers may take them in either order). Its log line names the lead whose journaled
    // step says so.
    const confirmations = () =>
      withMessage(logs.records(), 'delivery: step done').filter(
        (record) => record.destination === 'confirmation-email',
      );
    await eventually(() => confirmations().length === 2, 'both confirmation steps');
    const heldInJournal: string[] = [];
    for (const entry of entries) {
      const steps = await store.deliveries.steps(entry.lead.id);
      const confirmation = steps.find((step) => step.destination === 'confirmation-email');
      if (String(confirmation?.detail).startsWith('not sent')) heldInJournal.push(entry.lead.id);
    }
    expect(heldInJournal).toHaveLength(1);
    const held = confirmations().filter((record) => String(record.detail).startsWith('not sent'));
    expect(held.map((record) => record.leadId)).toEqual(heldInJournal);
    expect(logs.lines.join('\n')).not.toContain(EMAIL);
  });
});
