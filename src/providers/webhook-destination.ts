import { createHash } from 'node:crypto';
import { DestinationGoneError, UpstreamError } from '../domain/errors.ts';
import type { Lead } from '../domain/lead.ts';
import { webhookMessageFor } from './webhook-message.ts';
import type { WebhookSender } from './webhook-sender.ts';

/**
 * A destination's name in the journal, `leads status` and `leads replay --destination`: the host
 * (readable) and a digest of the whole URL (two flows on one n8n host stay apart), never the URL
 * itself, whose path or query often holds the receiver's token. Changing a URL makes a new destination.
 */
export function webhookDestinationName(url: URL): string {
  const digest = createHash('sha256').update(url.href).digest('hex').slice(0, 8);
  return `webhook:${url.hostname}:${digest}`;
}

/**
 * One webhook URL as a delivery destination, for every kind of lead: delivered when the receiver
 * answers 2xx; resolves with a short account for the journal. Never within a person's request.
 */
export function createWebhookDestination(url: URL, sender: WebhookSender) {
  const name = webhookDestinationName(url);
  return {
    name,
    provider: 'webhook',
    backgroundOnly: true,
    appliesTo: () => true,
    async deliver(lead: Lead, signal: AbortSignal): Promise<string> {
      const answer = await sender.send(url, webhookMessageFor(lead, name), signal);
      if (answer.status === 410) throw new DestinationGoneError(`${name} answered 410 Gone`);
      if (answer.status < 200 || answer.status > 299) {
        throw new UpstreamError(`${name} answered ${answer.status}`);
      }
      return `${name} answered ${answer.status}`;
    },
  };
}
