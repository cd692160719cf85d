import { resolve } from 'node:path';
import { addressList } from './config/address-list.ts';
import { configuredSecrets } from './config/secrets.ts';
import { readEnv, InvalidConfigError } from './config/read-env.ts';
import type { Env } from './config/env-schema.ts';

export { InvalidConfigError };

export type MailProviderName = NonNullable<Env['MAIL_PROVIDER']>;
export type LogLevel = Env['LOG_LEVEL'];

export interface Config {
  /** NODE_ENV=production: a start that would mislead is refused (docs/deployment.md, "Production"). */
  production: boolean;
  port: number;
  host: string;
  dataDir: string;
  /** docs/site.md: where `leadgate build` writes the site and `leadgate serve` reads it. */
  distDir: string;
  /** docs/site.md: CONTENT_DIR, the instance's own pages; unset, the shipped site/content. */
  contentDir: string | undefined;
  siteUrl: string;
  logLevel: LogLevel;
  /** docs/operations.md: the Bearer token of GET /metrics; unset, the route does not exist. */
  metricsToken: string | undefined;
  databaseUrl: string | undefined;
  /** docs/deployment.md: how each node uses PostgreSQL (ignored with SQLite). */
  database: {
    poolSize: number;
    statementTimeoutMs: number;
    connectTimeoutMs: number;
  };
  /** docs/deployment.md: when set, rate-limit counters live in Redis instead of the database. */
  redisUrl: string | undefined;
  /** docs/reliability.md: abuse limits (spec 8 leaves them open). */
  limits: {
    bodyBytes: number;
    /** Requests per client address and minute on each POST endpoint; 0 turns the limiter off. */
    ratePerMinute: number;
    /** RATE_LIMIT_ALLOW: the only clients the limit spares (none unless the operator names them). */
    rateLimitAllow: string[];
    /** Fastify's trustProxy: false, or the addresses/CIDRs of the trusted proxies (never `true`). */
    trustProxy: false | string[];
    /** A site form posted sooner after its page was served is spam (docs/api-decisions.md); 0 = off. */
    formMinFillMs: number;
    /** One confirmation per canonical mailbox and endpoint in this window; 0 = no cap. */
    confirmationIntervalMs: number;
    /** Confirmation e-mails per recipient domain and hour (docs/reliability.md); 0 = no cap. */
    confirmationDomainPerHour: number;
    /** The bot trap's token: its maximum age and how many posts it is good for (docs/api-decisions.md). */
    formTokenMaxAgeMs: number;
    formTokenMaxPosts: number;
  };
  /** docs/inbound.md: the prospects' replies and the bounces; no route while `secret` is unset. */
  inbound: { secret: string | undefined; maxBytes: number };
  /** How accepted leads are delivered (docs/delivery.md). */
  delivery: {
    /** DELIVERY: `queued` answers once the lead is durable; `sync` also hands it over in the request. */
    mode: Env['DELIVERY'];
    retryBaseMs: number;
    retryMaxMs: number;
    maxAttempts: number;
    deadAfterMs: number;
    /** Steps delivered at once by each node's dispatcher. */
    concurrency: number;
  };
  mail: {
    provider: MailProviderName;
    /** MAIL_PROVIDER was set, not left to its default (the outbox): production needs that choice. */
    providerChosen: boolean;
    from: string;
    agencyEmail: string;
    /** INBOUND_ADDRESS: Reply-To of the workspace's answers (docs/emails.md). */
    inboundAddress: string | undefined;
    timeoutMs: number;
    smtpUrl: string | undefined;
    brevo: {
      apiKey: string | undefined;
      apiUrl: string;
      contactListId: number | undefined;
      newsletterListId: number | undefined;
      auditListId: number | undefined;
      contactTemplateId: number | undefined;
      /** Calls per second on /contacts and on /smtp/email, for all nodes together. */
      contactsPerSecond: number;
      emailsPerSecond: number;
    };
  };
  /** Keys and passwords from the settings: masked literally in stored and shown provider texts. */
  secrets: string[];
  /** docs/consent.md: days kept after a person's last request (RGPD storage limitation). */
  retentionDays: number;
  /** docs/consent.md: a subscription joins the list only once confirmed through the e-mailed link. */
  newsletterDoubleOptIn: boolean;
  /** docs/workspace-security.md: the team's sessions and the audit trail's retention. */
  workspace: {
    sessionIdleMs: number;
    sessionMaxMs: number;
    auditRetentionDays: number;
    /** BUSINESS_HOURS, "HH:MM-HH:MM" (docs/workspace.md, "La promesse des 24 heures ouvrées"). */
    businessHours: string;
    /**
     * TEAM_SUMMARY_TIME in minutes after midnight, Paris time; undefined when `off`
     * (docs/workspace.md, « Le point du matin »).
     */
    summaryAt: number | undefined;
  };
  /** docs/delivery.md, « Alerts »: the second channel, beside the agency's e-mail. */
  alerts: {
    webhookUrl: string | undefined;
    webhookFormat: Env['ALERT_WEBHOOK_FORMAT'];
  };
  /** Signed deliveries to the agency's tools (docs/webhooks.md). */
  webhooks: {
    urls: string[];
    /** The bytes of WEBHOOK_SECRET (`whsec_` + base64), the HMAC key of every signature. */
    key: Uint8Array | undefined;
    allowPrivate: boolean;
    timeoutMs: number;
  };
}

/** A setting the chosen provider cannot work without: its absence stops the start, naming it. */
export function required<T>(value: T | undefined, name: string, by: string): T {
  if (value === undefined) throw new InvalidConfigError(`${name} is required by ${by}`);
  return value;
}

/** docs/webhooks.md: each URL once; entries are named by position, as a URL may carry a token. */
function webhookUrls(list: string | undefined): string[] {
  if (list === undefined) return [];
  const urls = list.split(',').map((entry, index) => {
    const url = URL.canParse(entry.trim()) ? new URL(entry.trim()) : undefined;
    if (!url) throw new InvalidConfigError(`WEBHOOK_URLS: entry ${index + 1} is not a valid URL`);
    return url.href;
  });
  if (new Set(urls).size !== urls.length) {
    throw new InvalidConfigError('WEBHOOK_URLS lists the same URL twice');
  }
  return urls;
}

/** Standard Webhooks, "Symmetric signatures": the key is 24 to 64 bytes, base64 after `whsec_`. */
function webhookKey(secret: string | undefined, urls: string[]): Uint8Array | undefined {
  if (secret === undefined) {
    if (urls.length > 0) throw new InvalidConfigError('WEBHOOK_SECRET is required by WEBHOOK_URLS');
    return undefined;
  }
  const encoded = secret.slice('whsec_'.length);
  const key = Buffer.from(encoded, 'base64');
  if (key.toString('base64') !== encoded || key.length < 24 || key.length > 64) {
    throw new InvalidConfigError(
      'WEBHOOK_SECRET must be whsec_ followed by the base64 of 24 to 64 random bytes (value not shown: it may hold a password)',
    );
  }
  return key;
}

/** Reads the environment once, at start; nothing else in the code reads process.env. */
export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const env = readEnv(source);
  const urls = webhookUrls(env.WEBHOOK_URLS);
  const provider = env.MAIL_PROVIDER ?? 'outbox';
  return {
    production: env.NODE_ENV === 'production',
    port: env.PORT,
    host: env.HOST,
    dataDir: resolve(env.DATA_DIR),
    distDir: resolve(env.DIST_DIR),
    contentDir: env.CONTENT_DIR === undefined ? undefined : resolve(env.CONTENT_DIR),
    siteUrl: (env.SITE_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ''),
    logLevel: env.LOG_LEVEL,
    metricsToken: env.METRICS_TOKEN,
    databaseUrl: env.DATABASE_URL,
    database: {
      poolSize: env.DATABASE_POOL_SIZE,
      statementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT_MS,
      connectTimeoutMs: env.DATABASE_CONNECT_TIMEOUT_MS,
    },
    redisUrl: env.REDIS_URL,
    limits: {
      bodyBytes: env.BODY_LIMIT_BYTES,
      ratePerMinute: env.RATE_LIMIT_PER_MINUTE,
      rateLimitAllow: addressList(env.RATE_LIMIT_ALLOW, 'RATE_LIMIT_ALLOW'),
      trustProxy:
        env.TRUST_PROXY === undefined || env.TRUST_PROXY === 'false'
          ? false
          : addressList(env.TRUST_PROXY, 'TRUST_PROXY'),
      formMinFillMs: env.FORM_MIN_FILL_SECONDS * 1000,
      confirmationIntervalMs: env.CONFIRMATION_INTERVAL_HOURS * 60 * 60 * 1000,
      confirmationDomainPerHour: env.CONFIRMATION_DOMAIN_PER_HOUR,
      formTokenMaxAgeMs: env.FORM_TOKEN_MAX_AGE_HOURS * 60 * 60 * 1000,
      formTokenMaxPosts: env.FORM_TOKEN_MAX_POSTS,
    },
    delivery: {
      mode: env.DELIVERY,
      retryBaseMs: env.DELIVERY_RETRY_BASE_MS,
      retryMaxMs: env.DELIVERY_RETRY_MAX_MS,
      maxAttempts: env.DELIVERY_MAX_ATTEMPTS,
      deadAfterMs: env.DELIVERY_DEAD_AFTER_HOURS * 60 * 60 * 1000,
      // The outbox's steps are local files: more of them in flight lets the journal settle them
      // together (docs/performance.md, "Delivery path"); a mail server or a receiver gets fewer.
      concurrency: env.DELIVERY_CONCURRENCY ?? (provider === 'outbox' ? 64 : 8),
    },
    mail: {
      provider,
      providerChosen: env.MAIL_PROVIDER !== undefined,
      from: env.MAIL_FROM,
      agencyEmail: env.AGENCY_EMAIL,
      inboundAddress: env.INBOUND_ADDRESS,
      timeoutMs: env.PROVIDER_TIMEOUT_MS,
      smtpUrl: env.SMTP_URL,
      brevo: {
        apiKey: env.BREVO_API_KEY,
        apiUrl: env.BREVO_API_URL.replace(/\/+$/, ''),
        contactListId: env.BREVO_CONTACT_LIST_ID,
        newsletterListId: env.BREVO_NEWSLETTER_LIST_ID,
        auditListId: env.BREVO_AUDIT_LIST_ID,
        contactTemplateId: env.BREVO_CONTACT_TEMPLATE_ID,
        contactsPerSecond: env.BREVO_CONTACTS_PER_SECOND,
        emailsPerSecond: env.BREVO_EMAILS_PER_SECOND,
      },
    },
    secrets: configuredSecrets(env),
    inbound: { secret: env.INBOUND_SECRET, maxBytes: env.INBOUND_MAX_BYTES },
    retentionDays: env.RETENTION_DAYS,
    newsletterDoubleOptIn: env.NEWSLETTER_DOUBLE_OPT_IN === 'true',
    workspace: {
      sessionIdleMs: env.STAFF_SESSION_IDLE_MINUTES * 60 * 1000,
      sessionMaxMs: env.STAFF_SESSION_MAX_HOURS * 60 * 60 * 1000,
      auditRetentionDays: env.STAFF_AUDIT_RETENTION_DAYS,
      businessHours: env.BUSINESS_HOURS,
      summaryAt: minutesOf(env.TEAM_SUMMARY_TIME),
    },
    alerts: { webhookUrl: env.ALERT_WEBHOOK_URL, webhookFormat: env.ALERT_WEBHOOK_FORMAT },
    webhooks: {
      urls,
      key: webhookKey(env.WEBHOOK_SECRET, urls),
      allowPrivate: env.WEBHOOK_ALLOW_PRIVATE === 'true',
      timeoutMs: env.WEBHOOK_TIMEOUT_MS,
    },
  };
}

/** "08:30" → 510; `off` → undefined (the pattern of TEAM_SUMMARY_TIME admits nothing else). */
function minutesOf(time: string): number | undefined {
  if (time === 'off') return undefined;
  const [hours, minutes] = time.split(':').map(Number) as [number, number];
  return hours * 60 + minutes;
}
