import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyLoggerOptions, FastifyReply, FastifyRequest } from 'fastify';
import { pino, type Logger, type LoggerOptions } from 'pino';
import { maskText } from '../domain/masking.ts';
import { maskUrl, maskValue, serializeError, setOwn } from './log-masking.ts';
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

/**
 * Structured JSON logs (pino) in which personal data and secrets are masked wherever they appear:
 * in the message, in any logged object, in errors and their causes (docs/reliability.md).
 */
export function loggerOptions(
  level: string,
  stream?: NodeJS.WritableStream,
): LoggerOptions & Pick<FastifyLoggerOptions, 'stream'> {
  return {
    level,
    ...(stream && { stream: stream as FastifyLoggerOptions['stream'] }),
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers["api-key"]',
        'req.headers.cookie',
        '*.apiKey',
        '*.password',
      ],
      censor: '[masqué]',
    },
    serializers: {
      error: (error: unknown) => maskValue(error instanceof Error ? serializeError(error) : error),
      err: (error: unknown) => maskValue(error instanceof Error ? serializeError(error) : error),
      req: (request: { method: string; url: string; ip?: string }) => ({
        method: request.method,
        url: maskUrl(request.url),
        remoteAddress: request.ip,
      }),
    },
    formatters: {
      // req, res and err have serializers of their own (below), which run after this formatter.
      log: (object) => {
        const masked: Record<string, unknown> = {};
        for (const [key, value] of Object.entries(object)) {
          setOwn(masked, key, SERIALIZED_KEYS.has(key) ? value : maskValue(value));
        }
        return masked;
      },
    },
    hooks: {
      logMethod(args, method) {
        const masked = args.map((arg) => (typeof arg === 'string' ? maskText(arg) : arg));
        method.apply(this, masked as Parameters<typeof method>);
      },
    },
  };
}

/** The same lines outside a server (`leadgate dispatch`, `leads replay`), written to `stream`. */
export function createLogger(level: string, stream: NodeJS.WritableStream): Logger {
  return pino(loggerOptions(level), stream);
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
