import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { SMTPServer } from 'smtp-server';
import { afterEach, describe, expect, it } from 'vitest';
import { loggerOptions } from '../../src/kernel/observability/logging.ts';
import { buildTestApp, validContact } from '../helpers/app.ts';
import { startFakeBrevo } from '../helpers/fake-brevo.ts';

/** Everything the app logs, line by line, as an operator's log collector would receive it. */
function captureLogs() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  return { lines, logger: loggerOptions({ logLevel: 'info', secrets: [] }, stream) };
}

const EMAIL = 'marie.dupont@example.fr';
const PHONE = '0612345678';
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe('structured logs with a request id, without personal data or secrets (docs/reliability.md)', () => {
  it('an SMTP refusal naming the address is logged masked, with the request id', async () => {
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onRcptTo(address, _session, callback) {
        callback(
          Object.assign(new Error(`<${address.address}> inconnu, tel ${PHONE}`), {
            responseCode: 451,
          }),
        );
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => smtp.close(() => resolve())));
    const { port } = smtp.server.address() as AddressInfo;
    const { lines, logger } = captureLogs();
    const started = await buildTestApp({
      env: { MAIL_PROVIDER: 'smtp', SMTP_URL: `smtp://127.0.0.1:${port}` },
      logger,
    });
    cleanups.push(() => started.close());

    const response = await started.app.inject({
      method: 'POST',
      url: `/api/contact?ref=${EMAIL}`,
      payload: { ...validContact, EMAIL, SMS: PHONE },
      headers: { 'x-request-id': 'trace-123' },
    });
    expect(response.statusCode).toBe(502);
    expect(response.headers['x-request-id']).toBe('trace-123');

    const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const errorLine = records.find((record) => record.err);
    expect(errorLine, lines.join('\n')).toBeDefined();
    expect(errorLine!.reqId).toBe('trace-123');
    expect(JSON.stringify(errorLine!.err)).toContain('m***@example.fr');
    expect(records.filter((record) => record.reqId === 'trace-123').length).toBeGreaterThan(1);
    const all = lines.join('\n');
    expect(all).not.toContain(EMAIL);
    expect(all).not.toContain(PHONE);
  });

  it('a Brevo API key never reaches the logs, even when Brevo refuses it', async () => {
    const secret = 'xkeysib-0123456789abcdef-SECRET';
    const brevo = await startFakeBrevo('another-key');
    cleanups.push(() => brevo.close());
    const { lines, logger } = captureLogs();
    const started = await buildTestApp({
      env: {
        MAIL_PROVIDER: 'brevo',
        BREVO_API_KEY: secret,
        BREVO_API_URL: brevo.url,
        BREVO_NEWSLETTER_LIST_ID: '8',
      },
      logger,
    });
    cleanups.push(() => started.close());
    started.app.log.info({ config: started.config.mail.brevo }, 'configuration at start');
    started.app.log.warn(`retrying with api-key: ${secret}`);
    const response = await started.app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: validContact,
    });
    expect(response.statusCode).toBe(502);
    expect(lines.length).toBeGreaterThan(2);
    expect(lines.join('\n')).not.toContain('0123456789abcdef');
  });
});
