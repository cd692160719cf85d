import { setTimeout as sleep } from 'node:timers/promises';
import type { Config } from '../../src/config.ts';
import { UpstreamError } from '../../src/domain/errors.ts';
import type { Lead } from '../../src/domain/lead.ts';
import { createProvider } from '../../src/providers/create-provider.ts';
import type { HandoffLedger, Provider } from '../../src/providers/provider.ts';

/**
 * The real provider MAIL_PROVIDER picks (the outbox by default), seen through our own Provider
 * interface: counts hand-offs, can be slowed down, and can fail its next deliveries on purpose.
 */
export class ObservedProvider implements Provider {
  readonly name: string;
  calls = 0;
  failNext = 0;
  delayMs = 0;
  private readonly inner: Provider;

  constructor(config: Config) {
    this.inner = createProvider(config);
    this.name = this.inner.name;
  }

  async deliver(lead: Lead, signal: AbortSignal, handoffs?: HandoffLedger) {
    this.calls += 1;
    if (this.delayMs) await sleep(this.delayMs);
    if (this.failNext > 0) {
      this.failNext -= 1;
      throw new UpstreamError('provider down (test)');
    }
    return this.inner.deliver(lead, signal, handoffs);
  }

  close() {
    return this.inner.close();
  }
}
