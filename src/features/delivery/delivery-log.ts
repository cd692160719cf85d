import type { ClaimedStep, Deliveries, StepOutcome } from '../../kernel/lead/deliveries.ts';
import type { LeadLog } from './lead-log.ts';
import { overriding } from './overriding.ts';

const stepLog = (log: LeadLog, step: ClaimedStep) =>
  log.child({ leadId: step.leadId, destination: step.destination });

/**
 * docs/operations.md: one log line per step attempt (and per lead from before steps, planned late), written when its outcome is journaled (so the
 * log never tells more than the journal holds), with the lead's id and the destination bound.
 */
export function loggedDeliveries(deliveries: Deliveries, log: LeadLog): Deliveries {
  const settle: Deliveries['settle'] = async (step, outcome, now) => {
    const lineLog = stepLog(log, step);
    let settled;
    try {
      settled = await deliveries.settle(step, outcome, now);
    } catch (error) {
      lineLog.error(
        { err: error, outcome: outcome.status },
        'delivery: the outcome of an attempt could not be journaled; the step runs again after its lease',
      );
      throw error;
    }
    logOutcome(lineLog, step.attempts + 1, outcome);
    if (settled === 'planned-again') {
      lineLog.info(
        { revision: step.revision + 1 },
        'delivery: step planned again while it ran, due again',
      );
    }
    return settled;
  };
  const plan: Deliveries['plan'] = async (lead, steps, now) => {
    await deliveries.plan(lead, steps, now);
    log
      .child({ leadId: lead.id })
      .info({ destinations: steps.map((step) => step.destination) }, 'delivery: lead planned');
  };
  return overriding(deliveries, { settle, plan });
}

function logOutcome(log: LeadLog, attempt: number, outcome: StepOutcome): void {
  switch (outcome.status) {
    case 'done':
      return log.info({ attempt, detail: outcome.detail }, 'delivery: step done');
    case 'retrying':
      return log.warn(
        { attempt, error: outcome.error, nextAttemptAt: outcome.nextAttemptAt },
        'delivery: step failed, retried later',
      );
    case 'refused':
      return log.warn({ attempt, error: outcome.error }, 'delivery: step refused for good');
    case 'dead':
      return log.error({ attempt, error: outcome.error }, 'delivery: step dead, given up');
    case 'postponed':
      // Not an attempt: the rate budget had no slot in time.
      return log.info({ nextAttemptAt: outcome.nextAttemptAt }, 'delivery: step postponed');
  }
}
