import type { Config } from '../kernel/config.ts';
import { withConfirmationCap, withHeldBackFlag } from '../kernel/lead/confirmation-cap.ts';
import { loggedDeliveries } from '../features/delivery/delivery-log.ts';
import { CONFIRMATION_DESTINATION, type Destination } from '../kernel/lead/destination.ts';
import {
  createDispatcher,
  type Dispatcher,
  type DispatcherTimings,
} from '../features/delivery/dispatcher.ts';
import type { LeadLog } from '../features/delivery/lead-log.ts';
import { withOptOut } from '../features/newsletter/opt-out.ts';
import type { Provider } from '../features/delivery/provider.ts';
import type { RetryPolicy } from '../features/delivery/retry-policy.ts';
import type { Store } from '../kernel/journal/store.ts';

/** The dispatcher of docs/delivery.md over this store and provider: what serve, dispatch and replay run. */
export function createDispatcherFor(
  config: Config,
  store: Store,
  provider: Provider,
  /** Every attempt and alert is logged with its lead's id (docs/operations.md). */
  log: LeadLog,
  /** The store's, or the same measured (src/features/delivery/metrics.ts). */
  deliveries = store.deliveries,
  /** The loop's intervals, for tests that drive it (docs/delivery.md, « The dispatcher »). */
  timings: DispatcherTimings = {},
): Dispatcher {
  const { delivery } = config;
  return createDispatcher({
    deliveries: loggedDeliveries(deliveries, log),
    // docs/workspace-privacy.md, « Liste d’opposition »: every step of an opted-out address is
    // refused.
    destinations: cappedDestinations(config, store, provider.destinations).map((destination) =>
      withOptOut(destination, store.optOut),
    ),
    alerts: store.alerts,
    announce: (alert, signal) => provider.alertAgency(alert, signal),
    siteUrl: config.siteUrl,
    log,
    policy: deliveryRetryPolicy(config),
    timeoutMs: config.mail.timeoutMs,
    concurrency: delivery.concurrency,
    onError: (error) => log.error({ err: error }, 'delivery: the dispatcher hit an error'),
    ...timings,
  });
}

/** DELIVERY_RETRY_BASE_MS and its kin: how a failed step, or the team's summary, is retried. */
export function deliveryRetryPolicy({ delivery }: Config): RetryPolicy {
  return {
    baseMs: delivery.retryBaseMs,
    maxMs: delivery.retryMaxMs,
    maxAttempts: delivery.maxAttempts,
    deadAfterMs: delivery.deadAfterMs,
  };
}

/** The agency's notification, named in src/providers/mail-destinations.ts. */
const NOTIFICATION_DESTINATION = 'agency-notification';

/**
 * docs/reliability.md: one confirmation per mailbox, endpoint and CONFIRMATION_INTERVAL_HOURS, and
 * CONFIRMATION_DOMAIN_PER_HOUR per recipient domain, across nodes; the newsletter's link to confirm
 * likewise (docs/consent.md). The notification says when the e-mail to the person was held back.
 */
function cappedDestinations(
  config: Config,
  store: Store,
  destinations: readonly Destination[],
): Destination[] {
  const caps = {
    intervalMs: config.limits.confirmationIntervalMs,
    domainPerHour: config.limits.confirmationDomainPerHour,
  };
  const isCapped = (destination: Destination) =>
    destination.name === CONFIRMATION_DESTINATION || destination.optIn === 'asks';
  const capped = destinations.filter(
    (destination) =>
      destination.name === CONFIRMATION_DESTINATION ||
      (destination.optIn === 'asks' && config.newsletterDoubleOptIn),
  );
  return destinations.map((destination) =>
    isCapped(destination)
      ? withConfirmationCap(destination, store.confirmations, caps)
      : destination.name === NOTIFICATION_DESTINATION
        ? withHeldBackFlag(destination, capped, store.confirmations, caps)
        : destination,
  );
}
