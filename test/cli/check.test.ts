import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runLeadgate } from '../helpers/leadgate-cli.ts';
import { startSmtpSink, unreachableSmtpUrl } from '../helpers/smtp-sink.ts';

/*
 * docs/deployment.md: `leadgate check` connects to the SMTP server and signs in as a send would
 * (nodemailer's verify()), sending nothing: « prêt » only when the first lead's e-mails can leave.
 */
const scratch = mkdtempSync(join(tmpdir(), 'leadgate-check-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const env = (smtpUrl: string) => ({
  DATA_DIR: mkdtempSync(join(scratch, 'data-')),
  MAIL_PROVIDER: 'smtp',
  SMTP_URL: smtpUrl,
  PROVIDER_TIMEOUT_MS: '2000',
});

describe('leadgate check with SMTP', { timeout: 60_000 }, () => {
  it('an SMTP server that refuses connections: one line naming SMTP_URL, exit 2', async () => {
    const run = await runLeadgate(['check'], env(await unreachableSmtpUrl()));
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(
      /^Configuration invalide : SMTP_URL : le serveur ne répond pas ou refuse la connexion \(.*ECONNREFUSED.*\)\n$/,
    );
  });

  it('a server that answers: « prêt », after the line naming the journal', async () => {
    const sink = await startSmtpSink();
    try {
      const settings = env(sink.url);
      const run = await runLeadgate(['check'], settings);
      expect(run.code, run.stderr).toBe(0);
      expect(run.journal).toBe(`journal : SQLite ${join(settings.DATA_DIR, 'leadgate.sqlite')}`);
      expect(run.stdout).toBe('prêt : MAIL_PROVIDER=smtp, journal SQLite à jour\n');
      expect(sink.received).toEqual([]);
    } finally {
      await sink.close();
    }
  });
});
