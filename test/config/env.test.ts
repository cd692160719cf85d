import { describe, expect, it } from 'vitest';
import { InvalidConfigError, loadConfig } from '../../src/kernel/config.ts';
import { createProvider, type ProviderJournal } from '../../src/providers/create-provider.ts';
import type { RateBudgets } from '../../src/features/delivery/rate-budget.ts';
import { mailIdentity } from '../../src/features/site/mail-identity.ts';

/** The one line a wrong value produces, or undefined when the environment is accepted. */
function problem(
  env: Record<string, string>,
  start: (env: Record<string, string>) => unknown = loadConfig,
) {
  try {
    start(env);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidConfigError);
    return (error as Error).message;
  }
}

/** Creating a provider calls nobody: its rate budget and signing key are first used by a delivery. */
const unusedJournal: ProviderJournal = {
  budgets: {
    reserve: async () => ({ reserved: true, waitMs: 0 }),
    pauseUntil: async () => {},
    pausedFor: async () => 0,
  } satisfies RateBudgets,
  newsletter: { signingKey: async () => 'unused' },
};

describe('configuration: every variable validated by its schema (README "Configuration")', () => {
  it.each([
    [{ PORT: '99999' }, 'PORT', '99999'],
    [{ PORT: '80abc' }, 'PORT', '80abc'],
    [{ LOG_LEVEL: 'verbose' }, 'LOG_LEVEL', 'verbose'],
    [{ MAIL_FROM: 'pas une adresse' }, 'MAIL_FROM', 'pas une adresse'],
    [{ MAIL_FROM: 'Agence <bonjour@agence>' }, 'MAIL_FROM', 'bonjour@agence'],
    [{ AGENCY_EMAIL: 'equipe' }, 'AGENCY_EMAIL', 'equipe'],
    [{ SITE_URL: 'agence.fr' }, 'SITE_URL', 'agence.fr'],
    [{ BREVO_API_URL: 'ftp://api.brevo.com' }, 'BREVO_API_URL', 'ftp://'],
    [{ BREVO_API_URL: 'https://api.brevo.com/<v3>' }, 'BREVO_API_URL', '<v3>'],
    [{ SITE_URL: 'https://agence .fr' }, 'SITE_URL', 'agence .fr'],
    [{ DATABASE_POOL_SIZE: '3.5' }, 'DATABASE_POOL_SIZE', '3.5'],
    [{ BREVO_NEWSLETTER_LIST_ID: '0' }, 'BREVO_NEWSLETTER_LIST_ID', '0'],
    [{ TRUST_PROXY: '2' }, 'TRUST_PROXY', '2'],
    [{ TEAM_SUMMARY_TIME: '8h30' }, 'TEAM_SUMMARY_TIME', '8h30'],
  ])('%j: one line naming %s and quoting the value', (env, name, quoted) => {
    const line = problem(env);
    expect(line).toMatch(new RegExp(`^${name} must be `));
    expect(line).toContain(quoted);
    expect(line).not.toContain('\n');
  });

  it.each([
    [{ REDIS_URL: 'http://user:secret@cache:6379' }, 'REDIS_URL'],
    [{ DATABASE_URL: 'mysql://user:secret@db/leadgate' }, 'DATABASE_URL'],
    [{ SMTP_URL: 'mail.example.fr:secret' }, 'SMTP_URL'],
    // A host no URL parser reads.
    [{ REDIS_URL: 'redis://[secret' }, 'REDIS_URL'],
  ])(
    '%j: URLs checked by shape, the value (maybe a password) kept out of the line',
    (env, name) => {
      const line = problem(env);
      expect(line).toMatch(new RegExp(`^${name} must be an absolute `));
      expect(line).not.toContain('secret');
    },
  );

  it.each([
    [{ SMTP_URL: 'smtps://user:secret@smtp.example.fr:99999' }, 'SMTP_URL', '99999'],
    [{ DATABASE_URL: 'postgres://leadgate:secret@db:70000/leadgate' }, 'DATABASE_URL', '70000'],
  ])('%j: a port out of range is said as such, the rest of the URL kept out', (env, name, port) => {
    expect(problem(env)).toBe(`${name} has port ${port}: a port is an integer from 1 to 65535`);
  });

  it('blank values mean the default, so a copied .env.example line left empty changes nothing', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: ' ', LOG_LEVEL: '' })).toEqual(loadConfig({}));
  });

  it('DELIVERY_CONCURRENCY: 64 by default with the outbox, 8 with a mail server, as set otherwise', () => {
    expect(loadConfig({}).delivery.concurrency).toBe(64);
    const smtp = { MAIL_PROVIDER: 'smtp', SMTP_URL: 'smtp://mail.example:587' };
    expect(loadConfig(smtp).delivery.concurrency).toBe(8);
    expect(loadConfig({ ...smtp, DELIVERY_CONCURRENCY: '3' }).delivery.concurrency).toBe(3);
  });

  it.each([
    [{ MAIL_PROVIDER: 'smtp' }, 'SMTP_URL is required by MAIL_PROVIDER=smtp'],
    [
      { MAIL_PROVIDER: 'brevo', BREVO_NEWSLETTER_LIST_ID: '3' },
      'BREVO_API_KEY is required by MAIL_PROVIDER=brevo',
    ],
    [
      { MAIL_PROVIDER: 'brevo', BREVO_API_KEY: 'xkeysib-test' },
      'BREVO_NEWSLETTER_LIST_ID is required by MAIL_PROVIDER=brevo',
    ],
  ])('%j: a provider missing a setting it needs stops the start naming it', (env, line) => {
    expect(
      problem(env, (values) => createProvider(loadConfig(values), unusedJournal, mailIdentity())),
    ).toBe(line);
  });

  it('a complete provider starts', async () => {
    const env = { MAIL_PROVIDER: 'brevo', BREVO_API_KEY: 'k', BREVO_NEWSLETTER_LIST_ID: '3' };
    await createProvider(loadConfig(env), unusedJournal, mailIdentity()).close();
  });
});
