import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { SMTPServer } from 'smtp-server';
import { afterEach, describe, expect, it } from 'vitest';
import { replayLeads } from '../../src/cli/delivery-commands.ts';
import { buildTestApp, validContact, type TestApp } from '../helpers/app.ts';

/** A real SMTP server that refuses the agency's address while `refuseAgency` is set. */
async function startSmtp(agency: string) {
  const delivered: string[] = [];
  const state = { refuseAgency: true };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (state.refuseAgency && address.address === agency) {
        return callback(Object.assign(new Error('Boîte pleine'), { responseCode: 452 }));
      }
      callback();
    },
    onData(stream, session, callback) {
      stream.resume();
      stream.on('end', () => {
        delivered.push(...session.envelope.rcptTo.map((rcpt) => rcpt.address));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    delivered,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let testApp: TestApp | undefined;
afterEach(async () => {
  await testApp?.close();
  testApp = undefined;
});

describe('leads replay never sends a second confirmation (docs/delivery.md)', () => {
  it('re-delivers only the e-mail that failed, for SMTP', async () => {
    const agency = 'equipe@agence.example';
    const smtp = await startSmtp(agency);
    try {
      testApp = await buildTestApp({
        env: { MAIL_PROVIDER: 'smtp', SMTP_URL: smtp.url, AGENCY_EMAIL: agency },
        dialect: 'sqlite',
      });
      // The confirmation goes out first, then the agency's notification is refused: 502, `failed`.
      const response = await testApp.app.inject({
        method: 'POST',
        url: '/api/contact',
        payload: validContact,
      });
      expect(response.statusCode).toBe(502);
      expect(smtp.delivered).toEqual([validContact.EMAIL]);

      smtp.state.refuseAgency = false;
      const out = new PassThrough();
      const counts = await replayLeads(testApp.config, out);
      expect(counts).toEqual({ delivered: 1, failed: 0 });
      expect(smtp.delivered).toEqual([validContact.EMAIL, agency]);
      const [entry] = await testApp.store.list();
      expect(entry?.status).toBe('delivered');
      const steps = await testApp.store.deliveries.steps(entry!.lead.id);
      expect(steps.map((step) => [step.destination, step.status, step.attempts])).toEqual([
        ['agency-notification', 'done', 2],
        ['confirmation-email', 'done', 1],
      ]);

      // A second replay finds nothing to do.
      await replayLeads(testApp.config, new PassThrough());
      expect(smtp.delivered).toHaveLength(2);
    } finally {
      await smtp.close();
    }
  });
});
