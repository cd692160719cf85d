import { createHash } from 'node:crypto';
import type { Lead } from '../../kernel/lead/lead.ts';
import type { WebhookEvent } from '../../kernel/schemas/webhook-event.ts';

/** One lead as one destination receives it: the same id and body on every attempt. */
export interface WebhookMessage {
  id: string;
  body: string;
}

/**
 * Standard Webhooks, "webhook-id": the same id on every retry of one message, so a receiver can drop
 * a retry it already processed. Derived from the lead and the destination rather than stored: any
 * node, any later replay, computes the same one; two destinations get two ids.
 */
export function webhookIdFor(leadId: string, destination: string): string {
  const digest = createHash('sha256').update(`${leadId}\n${destination}`).digest('base64url');
  return `msg_${digest.slice(0, 32)}`;
}

export function webhookEventFor(lead: Lead): WebhookEvent {
  const receivedAt = lead.receivedAt.toISOString();
  const { consent } = lead;
  return {
    type: `lead.${lead.kind}`,
    timestamp: receivedAt,
    data: {
      id: lead.id,
      receivedAt,
      consent: consent
        ? {
            version: consent.version,
            wordingSha256: consent.wordingHash,
            givenAt: consent.givenAt.toISOString(),
            channel: consent.channel,
            page: consent.page,
          }
        : null,
      fields: lead.data,
    },
  } as WebhookEvent;
}

export function webhookMessageFor(lead: Lead, destination: string): WebhookMessage {
  return {
    id: webhookIdFor(lead.id, destination),
    body: JSON.stringify(webhookEventFor(lead)),
  };
}
