import { setTimeout as sleep } from 'node:timers/promises';
import { createAlertWatch } from './alert-watch.ts';
import type { AgencyAlert, DeliveryAlerts } from './alerts.ts';
import { withDeadline, describeError } from './deadline.ts';
import type { ClaimedStep, Deliveries, StepOutcome } from '../../kernel/lead/deliveries.ts';
import { UNFINISHED_STEP_STATUSES } from '../../kernel/lead/deliveries.ts';
import { targetOf, type Destination, type StepTarget } from '../../kernel/lead/destination.ts';
import { DestinationGoneError, RefusedError } from '../../kernel/lead/errors.ts';
import { SILENT_LOG, type LeadLog } from './lead-log.ts';
import { BudgetExhaustedError } from './rate-budget.ts';
import { afterFailure, type RetryPolicy } from './retry-policy.ts';
import { planUnplannedLeads } from './unplanned-leads.ts';
import { leadPagePath } from '../../kernel/schemas/workspace-paths.ts';

export interface DispatcherDependencies {
  deliveries: Deliveries;
  destinations: readonly Destination[];
  /** docs/delivery.md, « Alerts »: the causes open now, shared by every node. */
  alerts: DeliveryAlerts;
  /** Tells the agency about an alert (one per cause, or one per batch of dead steps). */
  announce(alert: AgencyAlert, signal: AbortSignal): Promise<void>;
  /** SITE_URL + a lead's page: every lead an alert names links there (docs/delivery.md, « Alerts »). */
  siteUrl: string;
  policy: RetryPolicy;
  /** PROVIDER_TIMEOUT_MS: bound on one step, budget wait included, unless its destination sets its own. */
  timeoutMs: number;
  /**
   * Steps in flight at once in the background loop (DELIVERY_CONCURRENCY), shared by every
   * destination; each destination's lane also holds at most this many (docs/delivery.md, « Each
   * destination its own slots »).
   */
  concurrency: number;
  /**
   * A step in flight longer than this leaves the shared slots (it still holds its lane's): a
   * destination that hangs never holds back the others.
   */
  slowStepMs?: number;
  /**
   * Steps in flight at once while leads keep arriving (one accepted within `arrivalQuietMs`): the
   * loop shares the event loop with the people waiting for an answer, who come first.
   */
  busyConcurrency?: number;
  arrivalQuietMs?: number;
  /** How often an idle loop looks for due steps that another node accepted. */
  pollMs?: number;
  /** How often the loop announces new alerts, recoveries and `dead` steps. */
  alertCheckMs?: number;
  /** A failure that names no setting opens an alert once one step failed this many times… */
  alertAfterAttempts?: number;
  /** …or once its lane failed this long without a success (docs/delivery.md, « Alerts »: 60 s). */
  alertLastingMs?: number;
  /** The log repeats that an alert could not be sent at most this often, per cause. */
  alertLogRepeatMs?: number;
  log?: LeadLog;
  /**
   * How often the loop looks for leads without steps (src/features/delivery/unplanned-leads.ts).
   */
  planCheckMs?: number;
  now?: () => Date;
  random?: () => number;
  onError?: (error: unknown) => void;
}

/** The loop's intervals and thresholds, injectable so tests drive rounds instead of waiting. */
export type DispatcherTimings = Partial<
  Pick<
    DispatcherDependencies,
    | 'pollMs'
    | 'alertCheckMs'
    | 'planCheckMs'
    | 'arrivalQuietMs'
    | 'slowStepMs'
    | 'alertAfterAttempts'
    | 'alertLastingMs'
    | 'alertLogRepeatMs'
    | 'now'
  >
>;

/** How one attempt ended; `error` is what the destination threw, for sync mode's answer. */
export interface StepRun {
  step: ClaimedStep;
  outcome: StepOutcome;
  error?: unknown;
}

const keyOf = (target: StepTarget) => `${target.provider}\u0000${target.destination}`;

/**
 * Delivers journaled steps (docs/delivery.md): a background loop in every `leadgate serve` and in
 * `leadgate dispatch`, plus `deliverLead` for sync mode and `leads replay`. Every step is leased
 * before it runs and settled after, so nodes share the work and a killed process's steps come back
 * once their lease ends. The one gap: a step whose hand-off succeeded but whose settle was never
 * written (kill -9 in between) runs again; docs/delivery.md says which destinations absorb that.
 */
export function createDispatcher({
  deliveries,
  destinations,
  alerts,
  announce,
  siteUrl,
  policy,
  timeoutMs,
  concurrency,
  busyConcurrency = Math.min(concurrency, 4),
  slowStepMs = 500,
  arrivalQuietMs = 1000,
  pollMs = 1000,
  alertCheckMs = 5000,
  alertAfterAttempts = 3,
  alertLastingMs = 60_000,
  alertLogRepeatMs = 3_600_000,
  planCheckMs = 60_000,
  now = () => new Date(),
  random = Math.random,
  onError = () => {},
  log = SILENT_LOG,
}: DispatcherDependencies) {
  const byTarget = new Map(destinations.map((d) => [keyOf(targetOf(d)), d]));
  const position = new Map(destinations.map((d, index) => [keyOf(targetOf(d)), index]));
  const targets = destinations.map(targetOf);
  const deadlineOf = (destination: Destination) => destination.timeoutMs ?? timeoutMs;
  const leaseMs = Math.max(timeoutMs, ...destinations.map(deadlineOf)) + 30_000;
  const lanes = lanesOf(destinations);
  let nextLane = 0;
  let lastArrival = -Infinity;
  /** Each step in flight, with its lane and when it started (performance.now()). */
  const inFlight = new Map<Promise<unknown>, { lane: string; startedAt: number }>();
  const sendsMail = new Set(destinations.filter((d) => d.sendsMail).map((d) => d.name));
  const byName = new Map(destinations.map((d) => [d.name, d]));
  const watch = createAlertWatch({
    alerts,
    deliveries,
    announce,
    sendsMail: (destination) => sendsMail.has(destination),
    laneOf: (destination) => {
      const known = byName.get(destination);
      return known ? laneOf(known) : destination;
    },
    destinationsOf: (lane) =>
      lanes.find((each) => each.lane === lane)?.targets.map((target) => target.destination) ?? [
        lane,
      ],
    destinationsOfProvider: (provider) =>
      destinations.filter((each) => each.provider === provider).map((each) => each.name),
    reachedThrough: (destination) => byName.get(destination)?.reachedThrough,
    leadUrl: (leadId) => `${siteUrl}${leadPagePath(leadId)}`,
    log,
    timeoutMs,
    alertAfterAttempts,
    lastingMs: alertLastingMs,
    logRepeatMs: alertLogRepeatMs,
    now,
  });
  let running: Promise<void> | undefined;
  let stopping = false;
  let woken = false;
  let wakeUp: (() => void) | undefined;
  let lastAlertCheck = 0;
  let lastPlanCheck = 0;
  let rounds = 0;

  function outcomeOf(step: ClaimedStep, error: unknown): StepOutcome {
    if (error instanceof RefusedError) return { status: 'refused', error: describeError(error) };
    if (error instanceof DestinationGoneError)
      return { status: 'dead', error: describeError(error) };
    if (error instanceof BudgetExhaustedError) {
      return { status: 'postponed', nextAttemptAt: error.retryAt };
    }
    const failure = {
      attempts: step.attempts + 1,
      receivedAt: step.lead.receivedAt,
      error: describeError(error),
    };
    return afterFailure(policy, failure, now(), random);
  }

  /** `handOff`: a lead's steps handed over one after the other within one wait (deliverLead). */
  async function run(
    step: ClaimedStep,
    handOff?: { leftMs: number; totalMs: number },
  ): Promise<StepRun> {
    const destination = byTarget.get(keyOf(step))!;
    const ownDeadline = deadlineOf(destination);
    const shared = handOff !== undefined && handOff.leftMs < ownDeadline;
    let result: StepRun;
    try {
      // A step left with what earlier steps did not use of the hand-off says so, not « 1 ms ».
      const detail = await withDeadline(
        shared ? handOff.leftMs : ownDeadline,
        (signal) => destination.deliver(step.lead, signal),
        shared ? `the ${handOff.totalMs} ms of the lead's hand-off` : undefined,
      );
      result = { step, outcome: { status: 'done', detail } };
    } catch (error) {
      result = { step, outcome: outcomeOf(step, error), error };
    }
    await deliveries.settle(step, result.outcome, now());
    try {
      await watch.observe(step, result.outcome, result.error);
    } catch (error) {
      onError(error);
    }
    return result;
  }

  function claim(limit: number, leadId?: string, among: readonly StepTarget[] = targets) {
    const at = now();
    const leaseUntil = new Date(at.getTime() + leaseMs);
    return deliveries.claim({ targets: among, now: at, leaseUntil, limit, leadId });
  }

  async function checkAlerts(): Promise<void> {
    if (Date.now() - lastAlertCheck < alertCheckMs) return;
    lastAlertCheck = Date.now();
    await watch.check();
  }

  /**
   * docs/delivery.md, « Each destination its own slots »: the shared slots count the steps that
   * are not slow; each lane holds at most `concurrency` of its own. Lanes take turns at the claim.
   */
  async function claimByLane(limit: number): Promise<ClaimedStep[]> {
    const at = performance.now();
    const perLane = new Map<string, number>();
    let shared = 0;
    for (const { lane, startedAt } of inFlight.values()) {
      perLane.set(lane, (perLane.get(lane) ?? 0) + 1);
      if (at - startedAt < slowStepMs) shared += 1;
    }
    if (limit - shared < Math.ceil(limit / 2)) return [];
    const claimed: ClaimedStep[] = [];
    const start = nextLane++ % lanes.length;
    for (let turn = 0; turn < lanes.length && shared < limit; turn += 1) {
      const { lane, targets: among } = lanes[(start + turn) % lanes.length]!;
      const free = Math.min(concurrency - (perLane.get(lane) ?? 0), limit - shared);
      if (free <= 0) continue;
      const taken = await claim(free, undefined, among);
      shared += taken.length;
      claimed.push(...taken);
    }
    return claimed;
  }

  async function planIfUnplanned(): Promise<void> {
    if (Date.now() - lastPlanCheck < planCheckMs) return;
    lastPlanCheck = Date.now();
    await planUnplannedLeads(deliveries, destinations, now());
  }

  function wakeLoop(): void {
    woken = true;
    wakeUp?.();
  }

  /** Until woken, the next poll, or the moment the oldest step in flight turns slow. */
  async function idle(): Promise<void> {
    if (woken || stopping) {
      woken = false;
      return;
    }
    const at = performance.now();
    const turnsSlow = [...inFlight.values()]
      .map(({ startedAt }) => startedAt + slowStepMs - at)
      .filter((ms) => ms > 0);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, Math.min(pollMs, ...turnsSlow.map(Math.ceil)));
      wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    wakeUp = undefined;
    woken = false;
  }

  async function loop(): Promise<void> {
    while (!stopping) {
      try {
        await planIfUnplanned();
        try {
          await checkAlerts();
        } catch (error) {
          onError(error);
        }
        // docs/performance.md, "Delivery path": fewer steps at once while leads arrive. A claim is
        // a write transaction of its own: the loop waits until half the slots are free and fills
        // them at once, rather than claiming one step each time one ends.
        const limit =
          performance.now() - lastArrival < arrivalQuietMs ? busyConcurrency : concurrency;
        const claimed = await claimByLane(limit);
        for (const step of claimed) {
          const running = run(step)
            .catch(onError)
            .finally(() => {
              inFlight.delete(running);
              wakeLoop();
            });
          inFlight.set(running, {
            lane: laneOf(byTarget.get(keyOf(step))!),
            startedAt: performance.now(),
          });
        }
        if (claimed.length === 0) await idle();
      } catch (error) {
        onError(error);
        await idle();
      }
      rounds += 1;
    }
    await Promise.allSettled(inFlight.keys());
  }

  return {
    /** The destinations this dispatcher can deliver (what a lead's steps are planned from). */
    destinations,
    start(): void {
      stopping = false;
      running ??= loop();
    },
    /** Lets the loop finish the steps in flight, then stops it. */
    async stop(): Promise<void> {
      stopping = true;
      wakeLoop();
      await running;
      running = undefined;
    },
    /**
     * How many rounds the background loop has finished: a test proves that nothing more is sent
     * by counting rounds after the fact, not by sleeping (docs/quality.md).
     */
    rounds(): number {
      return rounds;
    },
    /** A lead was just accepted: look for due steps now rather than at the next poll. */
    wake(): void {
      lastArrival = performance.now();
      wakeLoop();
    },
    /**
     * Delivers one lead's unfinished steps now, whatever their schedule (sync mode, `leads replay`),
     * waiting for steps another process holds, within `ms`. Failed attempts are settled as the
     * background loop would, so the lead is still retried later. `only` narrows the destinations
     * (`leads replay --destination`, sync mode leaving background-only ones to the loop).
     */
    async deliverLead(
      leadId: string,
      {
        ms = timeoutMs,
        only = () => true,
      }: { ms?: number; only?: (destination: Destination) => boolean } = {},
    ): Promise<{ finished: boolean; failures: StepRun[] }> {
      const chosen = destinations.filter(only).map(targetOf);
      const chosenKeys = new Set(chosen.map(keyOf));
      const until = Date.now() + ms;
      for (;;) {
        // In the providers' order (the CRM before the e-mails), one after the other, as a person
        // would hand them over.
        const claimed = (await claim(chosen.length, leadId, chosen)).sort(
          (a, b) => position.get(keyOf(a))! - position.get(keyOf(b))!,
        );
        const failures: StepRun[] = [];
        for (const step of claimed) {
          const result = await run(step, { leftMs: Math.max(1, until - Date.now()), totalMs: ms });
          if (result.outcome.status !== 'done' && result.outcome.status !== 'refused') {
            failures.push(result);
          }
        }
        if (failures.length > 0) return { finished: false, failures };
        const open = (await deliveries.steps(leadId)).filter(
          (step) => UNFINISHED_STEP_STATUSES.includes(step.status) && chosenKeys.has(keyOf(step)),
        );
        if (open.length === 0) return { finished: true, failures: [] };
        if (Date.now() >= until) return { finished: false, failures: [] };
        await sleep(Math.min(pollMs, 50));
      }
    },
  };
}

export type Dispatcher = ReturnType<typeof createDispatcher>;

const laneOf = (destination: Destination) => destination.lane ?? destination.name;

function lanesOf(destinations: readonly Destination[]) {
  const lanes = new Map<string, StepTarget[]>();
  for (const destination of destinations) {
    const lane = laneOf(destination);
    lanes.set(lane, [...(lanes.get(lane) ?? []), targetOf(destination)]);
  }
  return [...lanes].map(([lane, targets]) => ({ lane, targets }));
}
