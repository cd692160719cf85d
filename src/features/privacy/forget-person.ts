import type { Provider } from '../delivery/index.ts';
import type { Store } from '../../kernel/journal/store.ts';
import type { ForgetResult } from './journal.ts';

export interface ForgetOutcome extends ForgetResult {
  /** What the provider said, in a sentence without the address; undefined when it failed. */
  provider: string | undefined;
  providerError: Error | undefined;
}

/**
 * The right to erasure (RGPD art. 17, docs/consent.md): the journal first, in one transaction, then
 * the provider (a processor must erase too). If the provider fails, the journal is already clean
 * and running the command again asks the provider again: every step is safe to repeat.
 */
export async function forgetPerson({
  store,
  provider,
  address,
  now = new Date(),
  timeoutMs,
}: {
  store: Pick<Store, 'people'>;
  provider: Provider;
  address: string;
  now?: Date;
  timeoutMs: number;
}): Promise<ForgetOutcome> {
  const result = await store.people.forget(address, now);
  if (!provider.forget) {
    return { ...result, provider: `${provider.name} : ne garde rien.`, providerError: undefined };
  }
  try {
    const ids = [...result.leadIds, ...result.requestIds];
    const said = await provider.forget(address, ids, AbortSignal.timeout(timeoutMs));
    return { ...result, provider: said, providerError: undefined };
  } catch (error) {
    return {
      ...result,
      provider: undefined,
      providerError: error instanceof Error ? error : new Error(String(error)),
    };
  }
}
