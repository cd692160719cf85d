import type { Config } from '../config.ts';
import { withConfirmationCap } from '../domain/confirmation-cap.ts';
import { loggedAlert, loggedDeliveries } from '../domain/delivery-log.ts';
import { CONFIRMATION_DESTINATION } from '../domain/destination.ts';
import { createDispatcher, type Dispatcher } from '../domain/dispatcher.ts';
import type { LeadLog } from '../domain/lead-log.ts';
import type { Provider } from '../domain/provider.ts';
import type { Store } from '../domain/store.ts';

/** The dispatcher of docs/delivery.md over this store and provider: what serve, dispatch and replay run. */
export function createDispatcherFor(
  config: Config,
  store: Store,
  provider: Provider,
  /** Every attempt and alert is logged with its lead's id (docs/operations.md). */
  log: LeadLog,
  /** The store's, or the same measured (src/http/metrics.ts). */
  deliveries = store.deliveries,
): Dispatcher {
  const { delivery } = config;
  return createDispatcher({
    deliveries: loggedDeliveries(deliveries, log),
    // docs/reliability.md: one confirmation per address, endpoint and CONFIRMATION_INTERVAL_HOURS,
    // across nodes; the newsletter's link to confirm likewise (docs/consent.md).
    destinations: provider.destinations.map((destination) =>
      destination.name === CONFIRMATION_DESTINATION || destination.optIn === 'asks'
        ? withConfirmationCap(
            destination,
            store.confirmations,
            config.limits.confirmationIntervalMs,
          )
        : destination,
    ),
    alertAgency: loggedAlert((dead, signal) => provider.alertAgency(dead, signal), log),
    policy: {
      baseMs: delivery.retryBaseMs,
      maxMs: delivery.retryMaxMs,
      maxAttempts: delivery.maxAttempts,
      deadAfterMs: delivery.deadAfterMs,
    },
    timeoutMs: config.mail.timeoutMs,
    concurrency: delivery.concurrency,
    onError: (error) => log.error({ err: error }, 'delivery: the dispatcher hit an error'),
  });
}
