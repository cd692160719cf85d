import { randomUUID } from 'node:crypto';
import type { HandoffLedger, Provider } from '../providers/provider.ts';
import type { JournalEntry, Store } from '../store/store.ts';
import { ConfigurationError, UpstreamError } from './errors.ts';
import type { Lead, LeadRequest } from './lead.ts';

export interface IntakeOutcome {
  /** Whether the address was already known for this kind of request (spec 2.4). */
  existing: boolean;
}

export interface IntakeDependencies {
  store: Store;
  provider: Provider;
  timeoutMs: number;
  now?: () => Date;
  newId?: () => string;
}

/**
 * What accepting a lead means: journal first, then hand-off. The lead is durably `pending` before the
 * provider is called, so a crash or a provider failure never loses it; `leadgate leads replay` retries.
 */
export function createIntake({
  store,
  provider,
  timeoutMs,
  now = () => new Date(),
  newId = randomUUID,
}: IntakeDependencies) {
  async function deliver(lead: Lead, handedOver: readonly string[]): Promise<IntakeOutcome> {
    // Issue 4: each e-mail the provider accepts is recorded at once, so a re-delivery skips it.
    const ledger: HandoffLedger = {
      done: new Set(handedOver),
      record: (role) => store.handoffs.record(lead.id, role, now()),
    };
    let receipt;
    try {
      receipt = await withDeadline(timeoutMs, (signal) => provider.deliver(lead, signal, ledger));
    } catch (error) {
      await store.markFailed(lead.id, describe(error));
      if (error instanceof ConfigurationError) throw error;
      throw error instanceof UpstreamError
        ? error
        : new UpstreamError(`${provider.name} failed`, { cause: error });
    }
    const { alreadyKnown } = await store.markDelivered(lead.id, receipt.detail);
    return { existing: receipt.existing ?? alreadyKnown };
  }

  return {
    /** `id` lets a caller (the Idempotency-Key service) name the lead before it exists. */
    async submit(request: LeadRequest, options: { id?: string } = {}): Promise<IntakeOutcome> {
      const lead = { ...request, id: options.id ?? newId(), receivedAt: now() } as Lead;
      await store.record(lead);
      return deliver(lead, []);
    },

    /** Re-delivers a journal entry that is `failed` or still `pending` (after a crash). */
    async redeliver(entry: JournalEntry): Promise<IntakeOutcome> {
      return deliver(entry.lead, await store.handoffs.handedOver(entry.lead.id));
    },
  };
}

export type Intake = ReturnType<typeof createIntake>;

/** Providers receive an AbortSignal, but one that ignores it must not hold the caller past the deadline. */
async function withDeadline<T>(ms: number, task: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new UpstreamError(`no answer within ${ms} ms`);
      controller.abort(error);
      reject(error);
    }, ms);
  });
  try {
    return await Promise.race([task(controller.signal), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.name}: ${error.message}${cause}`.slice(0, 2000);
}
