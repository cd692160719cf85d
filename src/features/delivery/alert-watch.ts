import {
  healedAlert,
  openedAlert,
  type AgencyAlert,
  type AlertCause,
  type DeliveryAlert,
  type DeliveryAlerts,
  type LeadUrl,
} from './alerts.ts';
import { withDeadline, describeError } from './deadline.ts';
import { deadStepsAlert } from './dead-steps-alert.ts';
import { destinationWords } from './alert-words.ts';
import type { ClaimedStep, Deliveries, StepOutcome } from '../../kernel/lead/deliveries.ts';
import {
  DestinationGoneError,
  isUnreachable,
  MisconfiguredError,
} from '../../kernel/lead/errors.ts';
import type { LeadLog } from './lead-log.ts';

export interface AlertWatchDependencies {
  alerts: DeliveryAlerts;
  deliveries: Pick<Deliveries, 'takeDeadForAlert' | 'unmarkAlerted'>;
  /** Sends one alert to the agency (e-mail and/or ALERT_WEBHOOK_URL: the provider decides). */
  announce(alert: AgencyAlert, signal: AbortSignal): Promise<void>;
  /** Whether a destination sends its e-mails the way the alert e-mails go. */
  sendsMail(destination: string): boolean;
  /** The lane a destination shares with others (Destination.lane), and where it is reached. */
  laneOf(destination: string): string;
  /** Every destination of a lane. */
  destinationsOf(lane: string): readonly string[];
  /** Every destination a provider serves (a refused key blocks them all). */
  destinationsOfProvider(provider: string): readonly string[];
  reachedThrough(destination: string): string | undefined;
  /** Each lead an alert names links to its page in the workspace (where « Relancer » is). */
  leadUrl: LeadUrl;
  log: LeadLog;
  timeoutMs: number;
  /** A failure that names no setting opens a cause once one step failed this many times… */
  alertAfterAttempts: number;
  /**
   * …or once its lane kept failing this long without a success between, whatever the backlog: a
   * hanging webhook behind 200 leads fails every slot for a minute before any step's third attempt.
   */
  lastingMs: number;
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
  laneOf,
  destinationsOf,
  destinationsOfProvider,
  reachedThrough,
  leadUrl,
  log,
  timeoutMs,
  alertAfterAttempts,
  lastingMs,
  logRepeatMs,
  now,
}: AlertWatchDependencies) {
  /** Destinations and lanes with an open cause: only their successes are worth a write to heal. */
  const failing = new Set<string>();
  /**
   * A lane that fails without answering (no answer, a timeout) or with an answer that is no verdict on
   * one address (SMTP 4xx/5xx, Brevo 5xx, a webhook's non-2xx) is one cause for every destination of
   * its lane.
   */
  const laneKey = (step: Pick<ClaimedStep, 'provider' | 'destination'>, error: unknown) =>
    `${step.provider}:${laneOf(step.destination)}:${isUnreachable(error) ? 'unreachable' : 'failing'}`;
  const laneKeys = (step: Pick<ClaimedStep, 'provider' | 'destination'>) => [
    `${step.provider}:${laneOf(step.destination)}:unreachable`,
    `${step.provider}:${laneOf(step.destination)}:failing`,
  ];
  /**
   * Per lane key, since when it fails without a success between, how many attempts failed, and which
   * steps: an answered refusal that only one step meets may concern its address alone.
   */
  const streaks = new Map<string, { since: number; failures: number; steps: Set<string> }>();
  const lastLogged = new Map<string, number>();

  /** Who a setting's cause holds back: the call's destination, its lane, or the whole provider. */
  function holdsOf(step: ClaimedStep, scope: 'provider' | 'lane' | undefined) {
    if (scope === 'provider') return destinationsOfProvider(step.provider);
    if (scope === 'lane') return destinationsOf(laneOf(step.destination));
    return undefined;
  }

  function causeOf(
    step: ClaimedStep,
    outcome: StepOutcome,
    error: unknown,
  ): AlertCause | undefined {
    const where = { destination: step.destination, provider: step.provider };
    if (error instanceof MisconfiguredError) {
      const holds = holdsOf(step, error.problem.scope);
      return {
        key: error.problem.cause,
        ...where,
        ...(holds && { holds }),
        fix: error.problem.fix,
        said: error.problem.said,
      };
    }
    if (error instanceof DestinationGoneError) {
      return {
        key: `${step.destination}:gone`,
        ...where,
        fix: `WEBHOOK_URLS : ce destinataire n’existe plus ; corriger ou retirer son adresse, puis « Relancer » sur la fiche des demandes abandonnées`,
        said: error.message,
      };
    }
    if (outcome.status !== 'retrying' && outcome.status !== 'dead') return undefined;
    // An answer about one address that keeps failing ends `dead`, in the dead steps' alert; the
    // lane failing for everyone is a cause once it lasts (docs/delivery.md, « Alerts »).
    const key = laneKey(step, error);
    const at = now().getTime();
    const streak = streaks.get(key) ?? { since: at, failures: 0, steps: new Set<string>() };
    streak.failures += 1;
    streak.steps.add(`${step.leadId}:${step.destination}`);
    streaks.set(key, streak);
    const unreachable = isUnreachable(error);
    const lasting =
      failing.has(key) ||
      ((unreachable || streak.steps.size > 1) &&
        (outcome.status === 'dead' ||
          step.attempts + 1 >= alertAfterAttempts ||
          at - streak.since >= lastingMs));
    if (!lasting) return undefined;
    const setting = reachedThrough(step.destination);
    return {
      key,
      ...where,
      holds: destinationsOf(laneOf(step.destination)),
      fix: unreachable
        ? `${step.provider} ne répond pas : vérifier que le service est joignable${setting ? ` à l’adresse que donne ${setting}` : ''} ; rien à faire s’il s’agit d’une panne passagère`
        : step.provider === 'webhook'
          ? `vérifier ${destinationWords(step.destination).check} ; rien à faire s’il s’agit d’une panne passagère`
          : `${setting ? `${setting} : ` : ''}${step.provider} répond mais refuse chaque envoi : vérifier le compte chez ce prestataire (quota, limite d’envoi, compte suspendu, identifiants) ; rien à faire s’il s’agit d’une panne passagère`,
      said: describeError(error),
      // The attempts that failed before the cause opened count too: the alert tells how many calls failed.
      count: failing.has(key) ? 1 : streak.failures,
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

  /**
   * Steps given up since the last check, in one alert. A step whose destination (or lane) has a
   * cause already told to the agency is not told again: that alert says what fails, and its recovery
   * note counts the steps to replay (one alert per cause, docs/delivery.md, « Alerts »).
   */
  async function announceDead(open: readonly DeliveryAlert[]): Promise<void> {
    const dead = await deliveries.takeDeadForAlert(now());
    if (dead.length === 0) return;
    const told = new Set(
      open
        .filter((alert) => alert.announcedAt !== null)
        .flatMap((alert) => [alert.destination, laneOf(alert.destination)]),
    );
    const covered = (step: ClaimedStep) =>
      told.has(step.destination) || told.has(laneOf(step.destination));
    for (const step of dead.filter(covered)) {
      log
        .child({ leadId: step.leadId, destination: step.destination })
        .warn({}, 'delivery: dead step, under an alert already sent to the agency');
    }
    const untold = dead.filter((step) => !covered(step));
    if (untold.length === 0) return;
    const mailPathFailing = untold.some((step) => sendsMail(step.destination));
    if (await sendOrLog('dead-steps', deadStepsAlert(untold, mailPathFailing, leadUrl))) {
      for (const step of untold) {
        log
          .child({ leadId: step.leadId, destination: step.destination })
          .warn({}, 'delivery: dead step listed in an alert to the agency');
      }
    } else {
      await deliveries.unmarkAlerted(untold);
    }
  }

  return {
    /** After an attempt is journaled: opens (or counts) its cause, or heals its destination's. */
    async observe(step: ClaimedStep, outcome: StepOutcome, error: unknown): Promise<void> {
      if (outcome.status === 'done') {
        const lane = laneOf(step.destination);
        for (const key of laneKeys(step)) streaks.delete(key);
        if (!failing.has(step.destination) && !failing.has(lane)) return;
        failing.delete(step.destination);
        failing.delete(lane);
        for (const key of laneKeys(step)) failing.delete(key);
        for (const healed of await alerts.heal(step.destination, now(), laneKeys(step))) {
          log.info({ alert: healed.key, destination: healed.destination }, 'delivery alert healed');
        }
        return;
      }
      const cause = causeOf(step, outcome, error);
      if (!cause) return;
      failing.add(cause.destination);
      failing.add(laneOf(cause.destination));
      failing.add(cause.key);
      if (await alerts.record(cause, now())) {
        log.warn(
          { alert: cause.key, destination: cause.destination, said: cause.said, fix: cause.fix },
          'delivery alert opened',
        );
      }
    },

    /** At each alert check: dead steps, new causes and healed ones are told to the agency. */
    async check(): Promise<void> {
      const taken = await alerts.takeToAnnounce(now());
      const opened = await announceEach(taken.opened, (alert) =>
        openedAlert(alert, sendsMail(alert.destination), leadUrl),
      );
      const healed = await announceEach(taken.healed, (alert) => healedAlert(alert, leadUrl));
      await alerts.close(healed.sent);
      await alerts.release({ opened: opened.unsent, healed: healed.unsent });
      const open = await alerts.open();
      // Another node may have opened a cause: its destination's next success heals it here too.
      for (const alert of open) {
        failing.add(alert.destination);
        failing.add(laneOf(alert.destination));
        failing.add(alert.key);
      }
      await announceDead(open);
    },
  };
}
