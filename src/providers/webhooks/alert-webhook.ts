import type { Config } from '../../kernel/config.ts';
import type { AgencyAlert } from '../../features/delivery/alerts.ts';
import { UpstreamError } from '../../kernel/lead/errors.ts';
import { maskText } from '../../kernel/lead/masking.ts';
import type { Provider } from '../../features/delivery/provider.ts';

/**
 * docs/delivery.md, « Alerts »: ALERT_WEBHOOK_URL, the channel that does not depend on the
 * provider. `json` posts `{"text": …}`, what Slack's and Mattermost's incoming webhooks read;
 * `text` posts the alert as a plain body, what an ntfy topic reads. The text is masked as the logs
 * are (an address becomes m***@example.fr): a chat room is not the journal.
 */
export function postAlert(
  url: string,
  format: Config['alerts']['webhookFormat'],
  alert: AgencyAlert,
  signal: AbortSignal,
  secrets: readonly string[] = [],
  fetchImpl: typeof fetch = fetch,
): Promise<void> {
  const text = maskText(`${alert.subject}\n${alert.text}`, secrets);
  const request =
    format === 'json'
      ? { type: 'application/json', body: JSON.stringify({ text }) }
      : { type: 'text/plain; charset=utf-8', body: text };
  return fetchImpl(url, {
    method: 'POST',
    headers: { 'content-type': request.type },
    body: request.body,
    redirect: 'manual',
    signal,
  }).then(
    async (answer) => {
      await answer.body?.cancel();
      if (!answer.ok) throw new UpstreamError(`ALERT_WEBHOOK_URL answered ${answer.status}`);
    },
    (error: unknown) => {
      throw new UpstreamError('ALERT_WEBHOOK_URL could not be reached', { cause: error });
    },
  );
}

/**
 * The provider's alerts also go to ALERT_WEBHOOK_URL when it is set; when the failing destination
 * is the provider's own e-mail path, only there (an e-mail would fail the same way). Told when one
 * channel took it; an error only when none did.
 */
export function withAlertWebhook(provider: Provider, config: Config): Provider {
  const { webhookUrl, webhookFormat } = config.alerts;
  if (!webhookUrl) return provider;
  return {
    name: provider.name,
    destinations: provider.destinations,
    ...(provider.forget && { forget: provider.forget.bind(provider) }),
    ...(provider.sendMail && { sendMail: provider.sendMail.bind(provider) }),
    ...(provider.checkAccount && { checkAccount: provider.checkAccount.bind(provider) }),
    close: () => provider.close(),
    async alertAgency(alert, signal) {
      const channels = [postAlert(webhookUrl, webhookFormat, alert, signal, config.secrets)];
      if (!alert.mailPathFailing) channels.push(provider.alertAgency(alert, signal));
      const results = await Promise.allSettled(channels);
      if (results.some((result) => result.status === 'fulfilled')) return;
      const [first] = results as PromiseRejectedResult[];
      throw first!.reason;
    },
  };
}
