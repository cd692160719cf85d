import { ConfigurationError } from '../domain/errors.ts';
import type { DeliveryReceipt, Provider } from './provider.ts';

/**
 * Stands in for a provider whose settings are incomplete: the server still starts and validates
 * requests (400s keep working), and a valid lead is journaled then answered 500 server_error.
 */
export class MisconfiguredProvider implements Provider {
  constructor(
    readonly name: string,
    readonly problem: string,
  ) {}

  async deliver(): Promise<DeliveryReceipt> {
    throw new ConfigurationError(`${this.name} is not configured: ${this.problem}`);
  }

  async close(): Promise<void> {}
}
