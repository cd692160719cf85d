import { createHash } from 'node:crypto';
import {
  DestinationGoneError,
  MisconfiguredError,
  UpstreamError,
} from '../../kernel/lead/errors.ts';
import type { Lead } from '../../kernel/lead/lead.ts';
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
export function createWebhookDestination(url: URL, sender: WebhookSender, timeoutMs?: number) {
  const name = webhookDestinationName(url);
  return {
    name,
    provider: 'webhook',
    backgroundOnly: true,
    // docs/webhooks.md: each receiver its own slots and its own deadline (WEBHOOK_TIMEOUT_MS).
    lane: name,
    reachedThrough: 'WEBHOOK_URLS',
    // The sender ends the attempt at its own deadline and says so; this one only backs it up.
    ...(timeoutMs !== undefined && { timeoutMs: timeoutMs + Math.min(1000, timeoutMs) }),
    appliesTo: () => true,
    async deliver(lead: Lead, signal: AbortSignal): Promise<string> {
      const answer = await sender.send(url, webhookMessageFor(lead, name), signal);
      if (answer.status === 410) throw new DestinationGoneError(`${name} answered 410 Gone`);
      if (isSetting(answer.status)) {
        // The receiver refuses what any lead would bring: its address, token or signature check.
        const said = `${answer.status} ${answer.body.replace(/\s+/g, ' ').slice(0, 200)}`.trim();
        throw new MisconfiguredError(`${name} answered ${answer.status}`, {
          cause: `${name}:${answer.status}`,
          fix: `WEBHOOK_URLS ou WEBHOOK_SECRET : le destinataire ${url.host} refuse les envois (adresse, jeton ou vérification de signature à revoir)`,
          said,
        });
      }
      if (answer.status < 200 || answer.status > 299) {
        throw new UpstreamError(`${name} answered ${answer.status}`);
      }
      return `${name} answered ${answer.status}`;
    },
  };
}

/** A 4xx other than 408 (timeout) and 429 (slow down): retrying alone will not change it. */
function isSetting(status: number): boolean {
  return status >= 400 && status <= 499 && status !== 408 && status !== 429;
}
