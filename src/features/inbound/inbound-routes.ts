import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { registerBodyParsers } from '../../kernel/http/body-parsers.ts';
import { apiErrors } from '../../kernel/schemas/error-catalog.ts';
import {
  BrevoEventsSchema,
  BrevoInboundSchema,
  brevoMails,
  brevoReports,
  type BrevoEvents,
  type BrevoInbound,
} from './brevo-inbound.ts';
import { parseRawMail } from './raw-mail.ts';
import { receiveMail, receiveReport, type InboundDependencies } from './receive-inbound.ts';

/** The media types of a raw message: RFC 5322's own, and what MTA pipes (curl --data-binary) send. */
const RAW_MEDIA_TYPES = ['message/rfc822', 'application/octet-stream', 'text/plain'];

export const INBOUND_PATHS = {
  brevo: '/inbound/brevo',
  brevoEvents: '/inbound/brevo/events',
  raw: '/inbound/mail',
} as const;

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * docs/inbound.md: the routes a provider or an MTA posts to. Not registered without
 * INBOUND_SECRET; every request must carry it (`X-Inbound-Secret` or `?secret=`, masked in logs as
 * every configured secret), checked before the body is read: a wrong one is a 404, as if the route
 * did not exist. Bodies above INBOUND_MAX_BYTES are refused with 413 `payload_too_large`.
 */
export async function registerInboundRoutes(
  app: FastifyInstance,
  settings: { secret: string | undefined; maxBytes: number } & InboundDependencies,
): Promise<void> {
  const { secret, maxBytes } = settings;
  if (!secret) return;
  const expected = digest(secret);
  const carries = (request: FastifyRequest) => {
    const header = request.headers['x-inbound-secret'];
    const given =
      (typeof header === 'string' ? header : undefined) ??
      (request.query as Record<string, string | undefined>).secret;
    return given !== undefined && timingSafeEqual(digest(given), expected);
  };
  await app.register(async (scope) => {
    scope.addHook('onRequest', async (request) => {
      if (!carries(request)) throw apiErrors.notFound(request.method, request.url.split('?')[0]!);
    });
    // The app ignores bodies outside the routes that read them: JSON as the API reads it, and raw.
    registerBodyParsers(scope);
    scope.addContentTypeParser(RAW_MEDIA_TYPES, { parseAs: 'buffer' }, (_request, body, done) =>
      done(null, body),
    );
    const options = { bodyLimit: maxBytes };

    scope.post(
      INBOUND_PATHS.brevo,
      { ...options, schema: { body: BrevoInboundSchema } },
      async (request) => {
        const mails = brevoMails(request.body as BrevoInbound);
        const received = [];
        for (const mail of mails) received.push(await receiveMail(mail, settings));
        request.log.info(
          { leads: received.map((one) => one.leadId) },
          'inbound: messages received',
        );
        return {
          received: received.length,
          toReview: received.filter((one) => !one.leadId).length,
        };
      },
    );

    scope.post(
      INBOUND_PATHS.brevoEvents,
      { ...options, schema: { body: BrevoEventsSchema } },
      async (request) => {
        let flagged = 0;
        for (const report of brevoReports(request.body as BrevoEvents)) {
          if (await receiveReport(report, settings)) flagged++;
        }
        return { received: flagged };
      },
    );

    scope.post(INBOUND_PATHS.raw, options, async (request) => {
      const body = request.body;
      if (!Buffer.isBuffer(body))
        throw apiErrors.unsupportedMediaType(request.headers['content-type']);
      const parsed = await parseRawMail(body);
      if ('reports' in parsed) {
        let flagged = 0;
        for (const report of parsed.reports) {
          if (await receiveReport(report, settings)) flagged++;
        }
        return { received: flagged };
      }
      const one = await receiveMail(parsed.mail, settings);
      request.log.info({ lead: one.leadId }, 'inbound: message received');
      return { received: 1, toReview: one.leadId ? 0 : 1 };
    });
  });
}
