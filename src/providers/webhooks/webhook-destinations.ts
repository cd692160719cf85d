import { InvalidConfigError, type Config } from '../../kernel/config.ts';
import type { Provider } from '../../features/delivery/provider.ts';
import { isPublicAddress, literalAddressOf } from './webhook-address-guard.ts';
import { createWebhookDestination } from './webhook-destination.ts';
import { createWebhookSender } from './webhook-sender.ts';

/**
 * Adds one destination per WEBHOOK_URLS entry to the mail provider's (docs/webhooks.md): each lead
 * gets a journaled step per webhook, retried on its own, so a receiver that fails never holds or
 * repeats the e-mails, and the reverse. A URL written as a loopback or private address stops the
 * start (a name is checked when it resolves, at each attempt).
 */
export function withWebhookDestinations(provider: Provider, config: Config): Provider {
  const { urls, key, timeoutMs, allowPrivate } = config.webhooks;
  if (urls.length === 0 || !key) return provider;
  urls.forEach((href, index) => {
    const literal = literalAddressOf(new URL(href).hostname);
    if (literal && !allowPrivate && !isPublicAddress(literal)) {
      throw new InvalidConfigError(
        `WEBHOOK_URLS: entry ${index + 1} is a loopback, private or reserved address (WEBHOOK_ALLOW_PRIVATE=true allows it)`,
      );
    }
  });
  const sender = createWebhookSender({ key, timeoutMs, allowPrivate });
  const webhooks = urls.map((href) => createWebhookDestination(new URL(href), sender, timeoutMs));
  return {
    name: provider.name,
    destinations: [...provider.destinations, ...webhooks],
    alertAgency: (dead, signal) => provider.alertAgency(dead, signal),
    ...(provider.forget && { forget: provider.forget.bind(provider) }),
    ...(provider.sendMail && { sendMail: provider.sendMail.bind(provider) }),
    ...(provider.checkAccount && { checkAccount: provider.checkAccount.bind(provider) }),
    async close() {
      await Promise.all([provider.close(), sender.close()]);
    },
  };
}
