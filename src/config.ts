import { resolve } from 'node:path';

export type MailProviderName = 'outbox' | 'brevo' | 'smtp';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** Issue 3: where `leadgate build` writes the site and `leadgate serve` reads it. */
  distDir: string;
  siteUrl: string;
  databaseUrl: string | undefined;
  /** Issue 5: how each node uses PostgreSQL (ignored with SQLite). */
  database: {
    poolSize: number;
    statementTimeoutMs: number;
    connectTimeoutMs: number;
  };
  /** Issue 5: when set, rate-limit counters live in Redis instead of the database. */
  redisUrl: string | undefined;
  /** Issue 4: abuse limits (spec 8 leaves them open). */
  limits: {
    bodyBytes: number;
    /** Requests per client address and minute on each POST endpoint; 0 turns the limiter off. */
    ratePerMinute: number;
    /** True when RATE_LIMIT_PER_MINUTE is not set: the default limit then spares loopback clients. */
    rateLimitSparesLoopback: boolean;
    /** Fastify's trustProxy: false, true, or the addresses/CIDRs of the trusted proxies. */
    trustProxy: boolean | string;
  };
  mail: {
    provider: MailProviderName;
    from: string;
    agencyEmail: string;
    timeoutMs: number;
    smtpUrl: string | undefined;
    brevo: {
      apiKey: string | undefined;
      apiUrl: string;
      contactListId: number | undefined;
      newsletterListId: number | undefined;
      auditListId: number | undefined;
      contactTemplateId: number | undefined;
    };
  };
}

/** A value the operator set that cannot be used: the server refuses to start rather than guess. */
export class InvalidConfigError extends Error {}

type Env = Record<string, string | undefined>;

function text(env: Env, name: string, fallback: string): string {
  const value = env[name]?.trim();
  return value ? value : fallback;
}

function optionalText(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

function positiveInteger(env: Env, name: string): number | undefined {
  const value = optionalText(env, name);
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) <= 0) {
    throw new InvalidConfigError(`${name} must be a positive integer, got "${value}"`);
  }
  return Number(value);
}

function providerName(env: Env): MailProviderName {
  const value = text(env, 'MAIL_PROVIDER', 'outbox');
  if (value === 'outbox' || value === 'brevo' || value === 'smtp') return value;
  throw new InvalidConfigError(`MAIL_PROVIDER must be outbox, brevo or smtp, got "${value}"`);
}

/** Issue 5: DATABASE_URL names a PostgreSQL server; anything else is a typo, not a silent SQLite fallback. */
function postgresUrl(env: Env): string | undefined {
  const value = optionalText(env, 'DATABASE_URL');
  if (value !== undefined && !/^postgres(ql)?:\/\//.test(value)) {
    throw new InvalidConfigError('DATABASE_URL must start with postgres:// or postgresql://');
  }
  return value;
}

function nonNegativeInteger(env: Env, name: string): number | undefined {
  const value = optionalText(env, name);
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) {
    throw new InvalidConfigError(`${name} must be an integer ≥ 0, got "${value}"`);
  }
  return Number(value);
}

/** Issue 4: only behind a proxy may X-Forwarded-For name the client (else anyone picks their own address). */
function trustProxy(env: Env): boolean | string {
  const value = optionalText(env, 'TRUST_PROXY');
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  // Fastify 5 ignores a hop count (it cannot check who sent it): refuse it rather than trust no one silently.
  if (/^\d+$/.test(value)) {
    throw new InvalidConfigError(
      `TRUST_PROXY takes true, false or proxy addresses (e.g. 10.0.0.0/8), got "${value}"`,
    );
  }
  return value;
}

/** Reads the environment once, at start; nothing else in the code reads process.env. */
export function loadConfig(env: Env = process.env): Config {
  const port = positiveInteger(env, 'PORT') ?? 3000;
  const siteUrl = text(env, 'SITE_URL', `http://localhost:${port}`).replace(/\/+$/, '');
  try {
    new URL(siteUrl);
  } catch {
    throw new InvalidConfigError(`SITE_URL must be an absolute URL, got "${siteUrl}"`);
  }
  return {
    port,
    host: text(env, 'HOST', '0.0.0.0'),
    dataDir: resolve(text(env, 'DATA_DIR', './data')),
    distDir: resolve(text(env, 'DIST_DIR', './dist')),
    siteUrl,
    databaseUrl: postgresUrl(env),
    database: {
      poolSize: positiveInteger(env, 'DATABASE_POOL_SIZE') ?? 10,
      statementTimeoutMs: positiveInteger(env, 'DATABASE_STATEMENT_TIMEOUT_MS') ?? 5000,
      connectTimeoutMs: positiveInteger(env, 'DATABASE_CONNECT_TIMEOUT_MS') ?? 5000,
    },
    redisUrl: optionalText(env, 'REDIS_URL'),
    limits: {
      bodyBytes: positiveInteger(env, 'BODY_LIMIT_BYTES') ?? 64 * 1024,
      ratePerMinute: nonNegativeInteger(env, 'RATE_LIMIT_PER_MINUTE') ?? 30,
      rateLimitSparesLoopback: optionalText(env, 'RATE_LIMIT_PER_MINUTE') === undefined,
      trustProxy: trustProxy(env),
    },
    mail: {
      provider: providerName(env),
      from: text(env, 'MAIL_FROM', 'Agence <bonjour@agence.example>'),
      agencyEmail: text(env, 'AGENCY_EMAIL', 'equipe@agence.example'),
      timeoutMs: positiveInteger(env, 'PROVIDER_TIMEOUT_MS') ?? 8000,
      smtpUrl: optionalText(env, 'SMTP_URL'),
      brevo: {
        apiKey: optionalText(env, 'BREVO_API_KEY'),
        apiUrl: text(env, 'BREVO_API_URL', 'https://api.brevo.com/v3').replace(/\/+$/, ''),
        contactListId: positiveInteger(env, 'BREVO_CONTACT_LIST_ID'),
        newsletterListId: positiveInteger(env, 'BREVO_NEWSLETTER_LIST_ID'),
        auditListId: positiveInteger(env, 'BREVO_AUDIT_LIST_ID'),
        contactTemplateId: positiveInteger(env, 'BREVO_CONTACT_TEMPLATE_ID'),
      },
    },
  };
}
