import { truncatedNetwork } from '../lead/consent.ts';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyLoggerOptions, FastifyReply, FastifyRequest } from 'fastify';
import { pino, type Logger, type LoggerOptions } from 'pino';
import type { Config } from '../config.ts';
import { maskText } from '../lead/masking.ts';
import { maskField, maskUrl, maskValue, serializeError, setOwn } from './log-masking.ts';
import { wasRefused } from './refusal-log.ts';

export const REQUEST_ID_HEADER = 'x-request-id';
// A caller's (or a proxy's) id is kept only when it is a short token of safe characters (a UUID, a
// load balancer's trace id): never a way to forge log lines, spoof another request or bloat the logs.
const SERIALIZED_KEYS = new Set(['req', 'res', 'err', 'error']);
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** Fastify's genReqId: reuse a sane incoming X-Request-Id so a proxy's id follows the request, else a UUID. */
export function requestIdFor(request: IncomingMessage): string {
  const incoming = request.headers[REQUEST_ID_HEADER];
  return typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/** Echoes the id, so a caller reporting a problem can quote the line the operator will find in the logs. */
export function registerRequestIdHeader(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });
}

/** What the log lines need of the configuration: the level, and the secrets never to write. */
export type LogSettings = Pick<Config, 'logLevel' | 'secrets'>;

/**
 * Structured JSON logs (pino) in which personal data and secrets are masked wherever they appear:
 * in the message, in any logged object, in errors and their causes (docs/reliability.md). The
 * configured secrets (src/kernel/config/secrets.ts) are masked literally, as in the journal: a
 * provider's error may quote the key or password it was sent.
 */
export function loggerOptions(
  { logLevel, secrets }: LogSettings,
  stream?: NodeJS.WritableStream,
): LoggerOptions & Pick<FastifyLoggerOptions, 'stream'> {
  const masked = (error: unknown) =>
    maskValue(error instanceof Error ? serializeError(error) : error, secrets);
  return {
    level: logLevel,
    ...(stream && { stream: stream as FastifyLoggerOptions['stream'] }),
    serializers: {
      error: masked,
      err: masked,
      req: (request: { method: string; url: string; ip?: string }) => ({
        method: request.method,
        url: maskUrl(request.url, secrets),
        // docs/operations.md, "Logs": the network, as the consent record keeps it (IPv4 /24, IPv6
        // /48), never the full address beside a lead id that outlives the person's erasure.
        remoteAddress: request.ip === undefined ? undefined : truncatedNetwork(request.ip),
      }),
    },
    formatters: {
      // req, res and err have serializers of their own (below), which run after this formatter; a
      // request is logged by method, URL and address only, never its headers. Credentials are
      // censored by field name here (maskField) rather than by pino's redact paths, which cost a
      // third of writing a line (docs/performance.md).
      log: (object) => {
        const fields: Record<string, unknown> = {};
        for (const [key, value] of Object.entries(object)) {
          setOwn(fields, key, SERIALIZED_KEYS.has(key) ? value : maskField(key, value, secrets));
        }
        return fields;
      },
    },
    hooks: {
      logMethod(args, method) {
        const texts = args.map((arg) => (typeof arg === 'string' ? maskText(arg, secrets) : arg));
        method.apply(this, texts as Parameters<typeof method>);
      },
    },
  };
}

/** The same lines outside a server (`leadgate dispatch`, `leads replay`), written to `stream`. */
export function createLogger(settings: LogSettings, stream: NodeJS.WritableStream): Logger {
  return pino(loggerOptions(settings), stream);
}

/**
 * From the moment a request's lead has an id, every later line of the request (its errors, "request
 * completed") carries it: docs/operations.md.
 */
export function bindLeadId(request: FastifyRequest, reply: FastifyReply, leadId: string): void {
  request.log = request.log.child({ leadId });
  reply.log = request.log;
}

/**
 * One line per answered request (Fastify's own logging, off in app.ts, writes two: `incoming
 * request` and `request completed`), with the method, URL and status together. A route's
 * `logLevel` still silences it (pages, health probes); a request the rate limit refused writes
 * none: its client's refusals are counted in one warning per window (refusal-log.ts).
 */
export function registerRequestLog(app: FastifyInstance): void {
  app.addHook('onResponse', async (request, reply) => {
    if (wasRefused(request)) return;
    reply.log.info(
      { req: request, res: { statusCode: reply.statusCode }, responseTime: reply.elapsedTime },
      'request completed',
    );
  });
}
