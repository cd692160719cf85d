import { createHmac } from 'node:crypto';
import type { WebhookMessage } from './webhook-message.ts';

/**
 * Standard Webhooks, "Signature scheme": HMAC-SHA256 over `id.timestamp.body` with the secret's
 * bytes (WEBHOOK_SECRET without its `whsec_` prefix, base64-decoded), sent as `v1,<base64>`. The
 * timestamp is the attempt's (seconds), so a receiver can refuse replays of an old capture.
 */
export function signedHeaders(
  key: Uint8Array,
  message: WebhookMessage,
  at: Date,
): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const signature = createHmac('sha256', key)
    .update(`${message.id}.${timestamp}.${message.body}`)
    .digest('base64');
  return {
    'webhook-id': message.id,
    'webhook-timestamp': timestamp,
    'webhook-signature': `v1,${signature}`,
  };
}
