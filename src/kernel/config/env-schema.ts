import { Type, type Static } from 'typebox';
import Format from 'typebox/format';

/*
 * Every environment variable leadgate reads, once: validation at start (read-env.ts), the typed
 * values loadConfig() maps, the README configuration table and .env.example (both checked by
 * test/config/env-documents.test.ts) come from here. An empty value counts as unset, so a copied
 * `.env.example` line left blank means "the default".
 */

/** An address with a domain that has a dot: `x@localhost` would leave a notification undeliverable. */
const ADDRESS = String.raw`[^\s@<>"(),;:]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+`;

/** IPv4/IPv6 addresses or CIDRs, comma-separated; a bare number (a hop count) is not one. */
const ADDRESS_LIST = String.raw`(?!\d+$)[0-9A-Fa-f.:/]+(\s*,\s*[0-9A-Fa-f.:/]+)*`;

const integer = (options: {
  minimum: number;
  maximum?: number;
  default?: number;
  description: string;
}) => Type.Integer(options);

/*
 * An absolute URL: only the characters RFC 3986 allows (the pattern below), in a shape the WHATWG
 * parser, which reads these values, accepts. TypeBox's own `uri` format checks the same with one
 * case-insensitive regular expression of 2 KB that V8 took 17 ms to compile at every start
 * (docs/performance.md, "What a start loads").
 */
const ABSOLUTE_URL = 'absolute-url';
Format.Set(ABSOLUTE_URL, (value) => URL.canParse(value));
const URI_CHARACTERS = String.raw`[A-Za-z0-9._~:/?#\[\]@!$&'()*+,;=%-]`;

/** `expected` is said to the operator when the value does not fit: "PORT must be …, got …". */
const url = (
  schemes: string[],
  description: string,
  extra: { default?: string; examples?: string[]; shownDefault?: string; secret?: boolean } = {},
) =>
  Type.String({
    pattern: `^(${schemes.join('|')})://${URI_CHARACTERS}+$`,
    format: ABSOLUTE_URL,
    expected: `an absolute ${schemes.map((scheme) => `${scheme}://`).join(' or ')} URL`,
    description,
    ...extra,
  });

export const EnvSchema = Type.Object({
  PORT: integer({ minimum: 1, maximum: 65535, default: 3000, description: 'TCP port' }),
  HOST: Type.String({
    // Safe by default: a plain `npm start` answers this machine only; a deployment names the
    // interfaces it serves (the Docker image and deploy/leadgate.env.example set `0.0.0.0`).
    default: '127.0.0.1',
    pattern: String.raw`^[A-Za-z0-9.:\[\]-]+$`,
    expected: 'an IP address or a host name of this machine',
    description:
      'Interface to bind (`127.0.0.1` = this machine only, `0.0.0.0` = every IPv4 interface, `::` = every interface)',
  }),
  SITE_URL: Type.Optional(
    url(
      ['http', 'https'],
      'Public address: absolute links in the Markdown pages, llms.txt, sitemap, openapi.json',
      {
        shownDefault: 'http://localhost:$PORT',
      },
    ),
  ),
  NODE_ENV: Type.Optional(
    Type.String({
      description:
        '`production` refuses a start that would mislead: sample identity, `.example` addresses, an outbox nobody chose (docs/deployment.md)',
    }),
  ),
  DATA_DIR: Type.String({
    default: './data',
    description: 'SQLite journal and mail outbox (must be writable)',
  }),
  DIST_DIR: Type.String({
    default: './dist',
    description:
      'The pre-rendered site (`npm run build` writes it, `serve` rebuilds it when stale)',
  }),
  AGENCY_FILE: Type.Optional(
    Type.String({
      shownDefault: 'site/agency.yaml',
      description:
        'The agency’s identity file (name, legal notice, team, prices), its pictures in `images/` beside it (docs/site.md)',
    }),
  ),
  CONTENT_DIR: Type.Optional(
    Type.String({
      shownDefault: 'site/content',
      description:
        'The site’s Markdown pages (services, sectors, case studies…): an instance publishes its own without touching the checkout (docs/site.md)',
    }),
  ),
  LOG_LEVEL: Type.Union(
    [
      Type.Literal('fatal'),
      Type.Literal('error'),
      Type.Literal('warn'),
      Type.Literal('info'),
      Type.Literal('debug'),
      Type.Literal('trace'),
      Type.Literal('silent'),
    ],
    {
      default: 'info',
      description:
        'pino log level (`fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`)',
    },
  ),

  DATABASE_URL: Type.Optional(
    url(
      ['postgres', 'postgresql'],
      '`postgres://…`: PostgreSQL instead of the SQLite file (needed for several nodes)',
      {
        secret: true,
        examples: ['postgres://leadgate@127.0.0.1:5432/leadgate'],
      },
    ),
  ),
  DATABASE_POOL_SIZE: integer({
    minimum: 1,
    default: 10,
    description: 'PostgreSQL connections per node',
  }),
  DATABASE_STATEMENT_TIMEOUT_MS: integer({
    minimum: 1,
    default: 5000,
    description: 'A statement running longer is cancelled (the request gets 500 `server_error`)',
  }),
  DATABASE_CONNECT_TIMEOUT_MS: integer({
    minimum: 1,
    default: 5000,
    description: 'Time to get a connection',
  }),
  REDIS_URL: Type.Optional(
    url(
      ['redis', 'rediss'],
      'Rate-limit counters and Brevo rate budgets in Redis instead of the database',
      {
        secret: true,
        examples: ['redis://127.0.0.1:6379'],
      },
    ),
  ),

  // No schema default: loadConfig falls back to the outbox, and knows whether it was chosen
  // (docs/deployment.md, "Production": an outbox nobody chose is refused there).
  MAIL_PROVIDER: Type.Optional(
    Type.Union([Type.Literal('outbox'), Type.Literal('brevo'), Type.Literal('smtp')], {
      shownDefault: 'outbox',
      description:
        '`outbox` (`.eml` files in DATA_DIR/outbox, for trying leadgate out: they reach nobody), `brevo` or `smtp`',
    }),
  ),
  MAIL_FROM: Type.String({
    default: 'Agence <bonjour@agence.example>',
    pattern: `^(${ADDRESS}|[^<>]*<${ADDRESS}>)$`,
    expected: 'an e-mail address, optionally with a name: Agence <bonjour@agence.fr>',
    description: 'Sender of every e-mail (with Brevo: a verified sender)',
  }),
  AGENCY_EMAIL: Type.String({
    default: 'equipe@agence.example',
    pattern: `^${ADDRESS}$`,
    expected: 'an e-mail address',
    description: 'Receives a notification with every field of every lead',
  }),
  INBOUND_ADDRESS: Type.Optional(
    Type.String({
      pattern: `^${ADDRESS}$`,
      expected: 'an e-mail address',
      description:
        'Reply-To of the answers sent from the workspace, where the prospect’s replies arrive; unset: AGENCY_EMAIL (docs/emails.md)',
    }),
  ),
  PROVIDER_TIMEOUT_MS: integer({
    minimum: 1,
    default: 8000,
    description: 'Deadline of one hand-off to the provider, then 502 `upstream_error`',
  }),
  SMTP_URL: Type.Optional(
    url(['smtp', 'smtps'], 'SMTP server, required by `MAIL_PROVIDER=smtp`', {
      secret: true,
      examples: ['smtps://user:password@smtp.example.fr:465'],
    }),
  ),
  BREVO_API_KEY: Type.Optional(
    Type.String({
      description:
        'Brevo API key (`api-key` header), required by `MAIL_PROVIDER=brevo`; never logged',
    }),
  ),
  BREVO_API_URL: url(['https', 'http'], 'Brevo API base URL', {
    default: 'https://api.brevo.com/v3',
  }),
  BREVO_CONTACT_LIST_ID: Type.Optional(
    integer({ minimum: 1, description: 'List contact requests join (optional)' }),
  ),
  BREVO_NEWSLETTER_LIST_ID: Type.Optional(
    integer({
      minimum: 1,
      description: 'List of newsletter subscribers, required by `MAIL_PROVIDER=brevo`',
    }),
  ),
  BREVO_AUDIT_LIST_ID: Type.Optional(
    integer({ minimum: 1, description: 'List audit requests join (optional)' }),
  ),
  BREVO_CONTACT_TEMPLATE_ID: Type.Optional(
    integer({
      minimum: 1,
      description:
        'Brevo template for the confirmation; otherwise leadgate’s own French HTML + text',
    }),
  ),

  WEBHOOK_URLS: Type.Optional(
    Type.String({
      pattern: String.raw`^\s*https?://[^\s,]+(\s*,\s*https?://[^\s,]+)*\s*$`,
      expected: 'comma-separated http:// or https:// URLs',
      // A receiver's URL often carries its token in the path or query.
      secret: true,
      description:
        'Comma-separated http(s) URLs; each receives every lead, signed (docs/webhooks.md)',
      examples: ['https://n8n.agence.example/webhook/leads'],
    }),
  ),
  WEBHOOK_SECRET: Type.Optional(
    Type.String({
      pattern: '^whsec_[A-Za-z0-9+/]+={0,2}$',
      expected: 'whsec_ followed by the base64 of 24 to 64 random bytes',
      secret: true,
      description: '`whsec_` + base64 of 24–64 random bytes, required by `WEBHOOK_URLS`',
      examples: ['whsec_$(openssl rand -base64 32)'],
    }),
  ),
  WEBHOOK_ALLOW_PRIVATE: Type.Union([Type.Literal('false'), Type.Literal('true')], {
    default: 'false',
    description: '`true` lets webhooks reach loopback/private addresses (refused by default: SSRF)',
  }),
  WEBHOOK_TIMEOUT_MS: integer({
    minimum: 1,
    default: 5000,
    description:
      'Deadline of one webhook attempt (within `PROVIDER_TIMEOUT_MS`), then retried later',
  }),

  ALERT_WEBHOOK_URL: Type.Optional(
    url(
      ['https', 'http'],
      'Second channel for delivery alerts (docs/delivery.md): a Slack or Mattermost incoming webhook, or an ntfy topic; used even when e-mail fails',
      { secret: true, examples: ['https://hooks.slack.com/services/T000/B000/XXXX'] },
    ),
  ),
  ALERT_WEBHOOK_FORMAT: Type.Union([Type.Literal('json'), Type.Literal('text')], {
    default: 'json',
    description:
      '`json`: POST `{"text": …}` (Slack, Mattermost); `text`: the alert as a plain-text body (ntfy)',
  }),

  METRICS_TOKEN: Type.Optional(
    Type.String({
      minLength: 24,
      pattern: String.raw`^[A-Za-z0-9._~+/=-]+$`,
      secret: true,
      expected: 'a random token of 24 characters or more (e.g. openssl rand -hex 24)',
      description:
        'Turns on `GET /metrics` (Prometheus), answered only with `Authorization: Bearer <token>`; off when unset',
    }),
  ),
  INBOUND_SECRET: Type.Optional(
    Type.String({
      pattern: String.raw`^[A-Za-z0-9_-]{24,}$`,
      secret: true,
      expected: 'a random token of 24 letters, digits, - or _ or more (e.g. openssl rand -hex 24)',
      description:
        'Turns on the inbound routes (`/inbound/…`: prospects’ replies, bounces, docs/inbound.md), answered only with this token in `X-Inbound-Secret` or `?secret=`; off when unset',
    }),
  ),
  INBOUND_MAX_BYTES: integer({
    minimum: 65_536,
    maximum: 52_428_800,
    default: 10_485_760,
    description:
      'Largest inbound e-mail or webhook body accepted (bytes); larger is refused with 413 `payload_too_large`',
  }),
  RETENTION_DAYS: integer({
    minimum: 1,
    default: 1095,
    description:
      'Days kept after a person’s last request; applied daily by `serve` (docs/consent.md)',
  }),

  STAFF_SESSION_IDLE_MINUTES: integer({
    minimum: 5,
    maximum: 1440,
    default: 60,
    description:
      'Workspace (`/equipe`): a session idle this long is closed (docs/workspace-security.md)',
  }),
  STAFF_SESSION_MAX_HOURS: integer({
    minimum: 1,
    maximum: 168,
    default: 12,
    description:
      'Workspace: longest life of a session, however active; then the member signs in again',
  }),
  BUSINESS_HOURS: Type.String({
    default: '09:00-18:00',
    pattern: String.raw`^([01]\d|2[0-3]):[0-5]\d-([01]\d|2[0-4]):[0-5]\d$`,
    expected: 'HH:MM-HH:MM, opening then closing time',
    description:
      'Workspace: opening hours, Monday to Friday except French public holidays, Europe/Paris, for the 24-business-hour answer promise',
  }),
  TEAM_SUMMARY_TIME: Type.String({
    default: '08:30',
    pattern: String.raw`^(off|([01]\d|2[0-3]):[0-5]\d)$`,
    expected: 'HH:MM (Paris time), or off',
    description:
      'Workspace: when the daily summary of the leads awaiting an answer is e-mailed to AGENCY_EMAIL, each business day, Europe/Paris; `off`: never (docs/workspace.md)',
  }),
  STAFF_AUDIT_RETENTION_DAYS: integer({
    minimum: 30,
    default: 365,
    description:
      'Workspace: days the audit trail (sign-ins, views, exports…) is kept; applied daily by `serve`',
  }),

  NEWSLETTER_DOUBLE_OPT_IN: Type.Union([Type.Literal('true'), Type.Literal('false')], {
    default: 'true',
    description:
      '`true`: a subscription joins the list only once the person follows the link e-mailed to them; `false`: at once (docs/consent.md)',
  }),

  BREVO_CONTACTS_PER_SECOND: integer({
    minimum: 1,
    default: 8,
    description:
      'Calls a second to Brevo’s `/contacts` for all nodes together (Brevo allows about 10)',
  }),
  BREVO_EMAILS_PER_SECOND: integer({
    minimum: 1,
    default: 20,
    description: 'Calls a second to Brevo’s `/smtp/email` for all nodes together',
  }),

  DELIVERY: Type.Union([Type.Literal('queued'), Type.Literal('sync')], {
    default: 'queued',
    description:
      '`queued`: 200 once the lead is journaled, delivered in the background; `sync`: delivered in the request, 502 on failure (docs/delivery.md)',
  }),
  DELIVERY_RETRY_BASE_MS: integer({
    minimum: 1,
    default: 5000,
    description: 'First retry of a failed step after about this long, doubling each time',
  }),
  DELIVERY_RETRY_MAX_MS: integer({
    minimum: 1,
    default: 14_400_000,
    description: 'Longest wait between two retries of a step (4 hours)',
  }),
  DELIVERY_MAX_ATTEMPTS: integer({
    minimum: 1,
    default: 30,
    description: 'A step still failing after this many attempts is `dead` (one alert e-mail)',
  }),
  DELIVERY_DEAD_AFTER_HOURS: integer({
    minimum: 1,
    default: 72,
    description: 'A step still failing when its lead is this old is `dead` (one alert e-mail)',
  }),
  DELIVERY_CONCURRENCY: Type.Optional(
    Type.Integer({
      minimum: 1,
      description:
        'Steps each node delivers at once (SMTP opens a connection per message in flight)',
      shownDefault: '8, or 64 when $MAIL_PROVIDER is outbox',
    }),
  ),

  BODY_LIMIT_BYTES: integer({
    minimum: 1,
    default: 65536,
    description: 'Largest request body, then 413 `payload_too_large`',
  }),
  RATE_LIMIT_PER_MINUTE: integer({
    minimum: 0,
    default: 30,
    description:
      'POSTs per client address, minute and endpoint, then 429 `rate_limited`; `0` = off',
  }),
  FORM_MIN_FILL_SECONDS: integer({
    minimum: 0,
    maximum: 60,
    default: 3,
    description:
      'A site form sent sooner after its page was served is journaled as `spam`, never delivered; `0` = no time check',
  }),
  CONFIRMATION_INTERVAL_HOURS: integer({
    minimum: 0,
    default: 24,
    description:
      'At most one confirmation e-mail per mailbox and endpoint in this many hours (`Pv+x@…` is `pv@…`); `0` = no cap',
  }),
  CONFIRMATION_DOMAIN_PER_HOUR: integer({
    minimum: 0,
    default: 20,
    description:
      'At most this many confirmation e-mails an hour to the addresses of one domain (gmail.com…), the rest held back; `0` = no cap',
  }),
  FORM_TOKEN_MAX_AGE_HOURS: integer({
    minimum: 1,
    default: 12,
    description:
      'A site form sent longer than this after its page was served is journaled as `spam` (`token_expired`)',
  }),
  FORM_TOKEN_MAX_POSTS: integer({
    minimum: 1,
    default: 3,
    description:
      'Posts accepted with one form token; the next ones are journaled as `spam` (`token_replayed`)',
  }),
  // Addresses and CIDRs only: `true` would let any client name its own address in X-Forwarded-For
  // and dodge the limit; a hop count cannot be checked by Fastify 5. Parsed again in loadConfig.
  TRUST_PROXY: Type.Optional(
    Type.String({
      pattern: `^(false|${ADDRESS_LIST})$`,
      expected:
        'the proxies’ addresses or CIDRs, comma-separated, e.g. 127.0.0.1,10.0.0.0/8 (`true` is refused: every client could then pick the address it is counted under)',
      description:
        'Addresses/CIDRs of the reverse proxies whose `X-Forwarded-For` names the client; none by default',
      examples: ['127.0.0.1,::1'],
    }),
  ),
  RATE_LIMIT_ALLOW: Type.Optional(
    Type.String({
      pattern: `^${ADDRESS_LIST}$`,
      expected: 'client addresses or CIDRs, comma-separated, e.g. 127.0.0.1,::1',
      description:
        'Client addresses/CIDRs never rate limited (e.g. a local health probe); none by default',
      examples: ['127.0.0.1,::1'],
    }),
  ),
});

export type Env = Static<typeof EnvSchema>;
export type EnvName = keyof Env & string;

/** The JSON Schema keywords and leadgate's own annotations read back from one variable's schema. */
export interface VariableSchema {
  description: string;
  default?: string | number;
  type?: string;
  minimum?: number;
  maximum?: number;
  anyOf?: { const: string }[];
  /** Said to the operator when the value does not fit: "PORT must be <expected>, got …". */
  expected?: string;
  /** The value may hold a password: never repeated in an error line. */
  secret?: boolean;
  /** A default computed from another variable, as the documents show it. */
  shownDefault?: string;
  examples?: string[];
}

export function variableSchema(name: string): VariableSchema {
  return EnvSchema.properties[name as EnvName] as unknown as VariableSchema;
}

export interface VariableDocs {
  name: EnvName;
  description: string;
  /** What the README and .env.example show as the default, undefined when unset. */
  default: string | undefined;
  /** The value .env.example writes: the schema's own default, blank when it is computed or chosen. */
  written: string;
  examples: string[];
}

export function variableDocs(): VariableDocs[] {
  return Object.keys(EnvSchema.properties).map((name) => {
    const schema = variableSchema(name);
    return {
      name: name as EnvName,
      description: schema.description,
      default:
        schema.shownDefault ?? (schema.default === undefined ? undefined : String(schema.default)),
      written: schema.default === undefined ? '' : String(schema.default),
      examples: schema.examples ?? [],
    };
  });
}
