import { setTimeout as sleep } from 'node:timers/promises';
import type { Config } from '../../src/kernel/config.ts';
import type { AgencyAlert } from '../../src/features/delivery/alerts.ts';
import type { Destination } from '../../src/kernel/lead/destination.ts';
import { UpstreamError } from '../../src/kernel/lead/errors.ts';
import type { Provider } from '../../src/features/delivery/provider.ts';
import { createProvider, type ProviderJournal } from '../../src/providers/create-provider.ts';
import { mailIdentity } from '../../src/features/site/mail-identity.ts';

/**
 * The real provider MAIL_PROVIDER picks (the outbox by default), seen through our own Provider
 * interface: counts hand-offs per destination, can be slowed down, and can fail its next steps on
 * purpose. `calls` counts agency notifications, one per lead handed over.
 */
export class ObservedProvider implements Provider {
  readonly name: string;
  readonly destinations: readonly Destination[];
  readonly stepCalls = new Map<string, number>();
  failNext = 0;
  delayMs = 0;
  private readonly inner: Provider;

  constructor(config: Config, journal: ProviderJournal) {
    this.inner = createProvider(config, journal, mailIdentity());
    this.name = this.inner.name;
    this.destinations = this.inner.destinations.map((destination) => ({
      ...destination,
      deliver: async (lead, signal) => {
        this.stepCalls.set(destination.name, (this.stepCalls.get(destination.name) ?? 0) + 1);
        if (this.delayMs) await sleep(this.delayMs);
        if (this.failNext > 0) {
          this.failNext -= 1;
          throw new UpstreamError('provider down (test)');
        }
        return destination.deliver(lead, signal);
      },
    }));
  }

  get calls(): number {
    return this.stepCalls.get('agency-notification') ?? 0;
  }

  alertAgency(alert: AgencyAlert, signal: AbortSignal) {
    return this.inner.alertAgency(alert, signal);
  }

  close() {
    return this.inner.close();
  }
}
