import { randomUUID } from 'node:crypto';
import { InvalidConfigError, type Config } from '../kernel/config.ts';
import { consentRecord } from '../kernel/lead/consent.ts';
import type { Lead } from '../kernel/lead/lead.ts';
import { webhookDestinationName } from '../providers/webhooks/webhook-destination.ts';
import { webhookMessageFor } from '../providers/webhooks/webhook-message.ts';
import { createWebhookSender } from '../providers/webhooks/webhook-sender.ts';
import { AUDIT_EXAMPLE, CONTACT_EXAMPLE, SUBSCRIBE_EXAMPLE } from '../kernel/schemas/examples.ts';
import type { LeadKind, LeadRequest } from '../kernel/schemas/lead-kinds.ts';

/** The complete example bodies /developers and llms.txt show (each one a test sends and sees accepted). */
const SAMPLES: { [Kind in LeadKind]: Extract<LeadRequest, { kind: Kind }>['data'] } = {
  contact: CONTACT_EXAMPLE,
  subscribe: SUBSCRIBE_EXAMPLE,
  audit: AUDIT_EXAMPLE,
};

/** As an API call that names no consent wording is recorded (docs/consent.md). */
function sampleLead(kind: LeadKind): Lead {
  const receivedAt = new Date();
  const { record } = consentRecord(kind, { channel: 'api' }, receivedAt);
  return {
    kind,
    data: SAMPLES[kind],
    id: `test-${randomUUID()}`,
    receivedAt,
    consent: record,
  } as Lead;
}

/**
 * `leadgate webhooks test <url>`: sends one signed sample event, exactly as a lead would be sent
 * (same signature, address guard, timeout), and prints what the receiver answered. True on a 2xx.
 */
export async function testWebhook(
  config: Config,
  target: string,
  kind: LeadKind,
  out: NodeJS.WritableStream,
): Promise<boolean> {
  const { key, timeoutMs, allowPrivate } = config.webhooks;
  if (!key) throw new InvalidConfigError('WEBHOOK_SECRET is not set');
  const url = URL.canParse(target) ? new URL(target) : undefined;
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:') {
    throw new InvalidConfigError(`« ${target} » n’est pas une adresse http(s)`);
  }
  const message = webhookMessageFor(sampleLead(kind), webhookDestinationName(url));
  const sender = createWebhookSender({ key, timeoutMs, allowPrivate });
  const started = performance.now();
  try {
    const answer = await sender.send(url, message);
    const ms = Math.round(performance.now() - started);
    out.write(`webhook-id ${message.id}\nRéponse HTTP ${answer.status} en ${ms} ms\n`);
    if (answer.body) out.write(`${answer.body}\n`);
    return answer.status >= 200 && answer.status <= 299;
  } catch (error) {
    const cause = (error as Error).cause;
    const detail = cause instanceof Error ? ` (${cause.message})` : '';
    out.write(`Échec : ${(error as Error).message}${detail}\n`);
    return false;
  } finally {
    await sender.close();
  }
}
