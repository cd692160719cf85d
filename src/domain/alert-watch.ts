import {
  healedAlert,
  openedAlert,
  type AgencyAlert,
  type AlertCause,
  type DeliveryAlert,
  type DeliveryAlerts,
} from './alerts.ts';
import { withDeadline, describeError } from './deadline.ts';
import { deadStepsAlert } from './dead-steps-alert.ts';
import type { ClaimedStep, Deliveries, StepOutcome } from './deliveries.ts';
import { DestinationGoneError, isUnreachable, MisconfiguredError } from './errors.ts';
import type { LeadLog } from './lead-log.ts';

export interface AlertWatchDependencies {
  alerts: DeliveryAlerts;
  deliveries: Pick<Deliveries, 'takeDeadForAlert' | 'unmarkAlerted'>;
  /** Sends one alert to the agency (e-mail and/or ALERT_WEBHOOK_URL: the provider decides). */
  announce(alert: AgencyAlert, signal: AbortSignal): Promise<void>;
  /** Whether a destination sends its e-mails the way the alert e-mails go. */
  sendsMail(destination: string): boolean;
  log: LeadLog;
  timeoutMs: number;
  /** A failure that names no setting opens a cause once one step failed this many times. */
  alertAfterAttempts: number;
  /** The log repeats that an alert could not be sent at most this often, per cause. */
  logRepeatMs: number;
  now: () => Date;
}

/**
 * docs/delivery.md, « Alerts »: turns attempts into causes (one per cause, not per lead), announces
 * them once with what to fix, and a recovery note once a step of the destination goes through. The
 * log says each cause once when it opens and once when it heals; a failed announcement once per
 * `logRepeatMs`, without a stack trace (a provider failing is expected, not a bug).
 */
export function createAlertWatch({
  alerts,
  deliveries,
  announce,
  sendsMail,
  log,
  timeoutMs,
  alertAfterAttempts,
  logRepeatMs,
  now,
}: AlertWatchDependencies) {
  /** Destinations with an open cause: only their successes are worth a write to heal. */
  const failing = new Set<string>();
  const lastLogged = new Map<string, number>();

  function causeOf(
    step: ClaimedStep,
    outcome: StepOutcome,
    error: unknown,
  ): AlertCause | undefined {
    const where = { destination: step.destination, provider: step.provider };
    if (error instanceof MisconfiguredError) {
      return {
        key: error.problem.cause,
        ...where,
        fix: error.problem.fix,
        said: error.problem.said,
      };
    }
    if (error instanceof DestinationGoneError) {
      return {
        key: `${step.destination}:gone`,
        ...where,
        fix: `WEBHOOK_URLS : ce destinataire n’existe plus ; corriger ou retirer son adresse, puis « leadgate leads replay --destination ${step.destination} »`,
        said: error.message,
      };
    }
    // Only a destination that does not answer at all is everyone's problem; an answer about one
    // address that keeps failing ends `dead`, in the dead steps' alert.
    const lasting =
      isUnreachable(error) &&
      (outcome.status === 'dead' ||
        (outcome.status === 'retrying' && step.attempts + 1 >= alertAfterAttempts));
    if (!lasting) return undefined;
    return {
      key: `${step.provider}:${step.destination}:failing`,
      ...where,
      fix: `la destination ${step.destination} ne répond pas ou échoue : vérifier le service (${step.provider}) et ses réglages ; rien à faire s’il s’agit d’une panne passagère`,
      said: describeError(error),
    };
  }

  async function announceEach(
    taken: readonly DeliveryAlert[],
    message: (alert: DeliveryAlert) => AgencyAlert,
  ): Promise<{ sent: DeliveryAlert[]; unsent: DeliveryAlert[] }> {
    const sent: DeliveryAlert[] = [];
    const unsent: DeliveryAlert[] = [];
    for (const alert of taken) {
      ((await sendOrLog(alert.key, message(alert))) ? sent : unsent).push(alert);
    }
    return { sent, unsent };
  }

  async function sendOrLog(key: string, alert: AgencyAlert): Promise<boolean> {
    try {
      await withDeadline(timeoutMs, (signal) => announce(alert, signal));
      log.info({ alert: key, subject: alert.subject }, 'delivery alert sent to the agency');
      return true;
    } catch (error) {
      const at = now().getTime();
      if (at - (lastLogged.get(key) ?? -Infinity) >= logRepeatMs) {
        lastLogged.set(key, at);
        log.warn(
          { alert: key, error: describeError(error) },
          'delivery alert could not be sent to the agency; tried again at each check',
        );
      }
      return false;
    }
  }

  return {
    /** After an attempt is journaled: opens (or counts) its cause, or heals its destination's. */
    async observe(step: ClaimedStep, outcome: StepOutcome, error: unknown): Promise<void> {
      if (outcome.status === 'done') {
        if (!failing.has(step.destination)) return;
        failing.delete(step.destination);
        for (const healed of await alerts.heal(step.destination, now())) {
          log.info({ alert: healed.key, destination: healed.destination }, 'delivery alert healed');
        }
        return;
      }
      const cause = causeOf(step, outcome, error);
      if (!cause) return;
      failing.add(cause.destination);
      if (await alerts.record(cause, now())) {
        log.warn(
          { alert: cause.key, destination: cause.destination, said: cause.said, fix: cause.fix },
          'delivery alert opened',
        );
      }
    },

    /** At each alert check: dead steps, new causes and healed ones are told to the agency. */
    async check(): Promise<void> {
      const dead = await deliveries.takeDeadForAlert(now());
      if (dead.length > 0) {
        const mailPathFailing = dead.some((step) => sendsMail(step.destination));
        if (await sendOrLog('dead-steps', deadStepsAlert(dead, mailPathFailing))) {
          for (const step of dead) {
            log
              .child({ leadId: step.leadId, destination: step.destination })
              .warn({}, 'delivery: dead step listed in an alert to the agency');
          }
        } else {
          await deliveries.unmarkAlerted(dead);
        }
      }
      const taken = await alerts.takeToAnnounce(now());
      const opened = await announceEach(taken.opened, (alert) =>
        openedAlert(alert, sendsMail(alert.destination)),
      );
      const healed = await announceEach(taken.healed, healedAlert);
      await alerts.close(healed.sent);
      await alerts.release({ opened: opened.unsent, healed: healed.unsent });
      // Another node may have opened a cause: its destination's next success heals it here too.
      for (const alert of await alerts.open()) failing.add(alert.destination);
    },
  };
}
