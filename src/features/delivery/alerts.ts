import { frenchDateTime } from '../../kernel/lead/french-date.ts';
/**
 * The agency's delivery alerts (docs/delivery.md, « Alerts »): one per cause, not per lead. A cause
 * opens when a destination fails for a reason someone has to fix (a setting, a Brevo object), or
 * keeps failing; it is announced once, counted while it lasts, and healed, with a recovery note,
 * when a step of its destination goes through again.
 */
export interface AlertCause {
  /** Stable name (`brevo:attribute:SERVICE`, `smtp:agency-notification:failing`). */
  key: string;
  destination: string;
  provider: string;
  /** What to fix, in French: the setting or the provider's object, and where. */
  fix: string;
  /** The provider's own status and words, last seen. */
  said: string;
  /**
   * The destinations whose steps the cause holds back, when more than `destination`: a provider
   * that does not answer holds every destination of its lane (the confirmations beside the
   * notifications).
   */
  holds?: readonly string[];
}

/** A cause as the journal keeps it while it is open (or healed and its recovery note not sent). */
export interface DeliveryAlert extends AlertCause {
  since: Date;
  lastAt: Date;
  /** Failed attempts counted under this cause since it opened. */
  count: number;
  /** The destinations it holds back: `holds`, or its destination alone. */
  holds: readonly string[];
  /** Steps of the destinations it holds waiting (pending or retrying) right now. */
  waiting: number;
  /** Steps of the destinations it holds given up (`dead`), to be replayed once it is fixed. */
  givenUp: number;
  /** When the agency was told; null while not yet. */
  announcedAt: Date | null;
  /** When a step of its destination went through again; null while open. */
  healedAt: Date | null;
}

/** Where the journal keeps them (the workspace's banner and dashboard read `open()`). */
export interface DeliveryAlerts {
  /** One more failure of this cause; true when it opens the cause (the log says it once). */
  record(cause: AlertCause, at: Date): Promise<boolean>;
  /**
   * A step of `destination` went through: its open causes heal, and those of `keys` (a provider
   * that did not answer is one cause for all the destinations it serves); says which were healed.
   */
  heal(destination: string, at: Date, keys?: readonly string[]): Promise<DeliveryAlert[]>;
  /** The causes open now, oldest first. */
  open(): Promise<DeliveryAlert[]>;
  /**
   * Takes what the agency must be told: causes never announced (marked announced) and causes healed
   * after they were announced (removed once told). `release` puts back what could not be sent.
   */
  takeToAnnounce(at: Date): Promise<{ opened: DeliveryAlert[]; healed: DeliveryAlert[] }>;
  release(taken: {
    opened: readonly DeliveryAlert[];
    healed: readonly DeliveryAlert[];
  }): Promise<void>;
  /** The recovery notes were sent: those causes are closed. */
  close(healed: readonly DeliveryAlert[]): Promise<void>;
}

/** What goes to the agency, by e-mail and through ALERT_WEBHOOK_URL (docs/delivery.md, « Alerts »). */
export interface AgencyAlert {
  /** Names this message for good (the e-mail's idempotency key and Message-ID derive from it). */
  id: string;
  subject: string;
  text: string;
  /**
   * The failing destination is the agency's own e-mail path (the provider's e-mails): an e-mail
   * about it would likely fail the same way, so it goes by the other channel.
   */
  mailPathFailing: boolean;
}

/**
 * When, as the agency reads it (« 28 novembre 2026 à 2 h 54 », Paris time): an ISO timestamp would
 * also be read by the alert channel's masking as a phone number (docs/delivery.md, « Alerts »).
 */
const at = frenchDateTime;

/** « vers agency-notification, confirmation-email (smtp) », and how to say « these destinations ». */
function placeOf(alert: DeliveryAlert) {
  return {
    where: `${alert.holds.join(', ')} (${alert.provider})`,
    these: alert.holds.length > 1 ? 'ces destinations' : 'cette destination',
  };
}

export function openedAlert(alert: DeliveryAlert, mailPathFailing: boolean): AgencyAlert {
  const { where, these } = placeOf(alert);
  return {
    id: `alert-open-${alert.key}-${alert.since.getTime()}`,
    subject: `leadgate : la livraison vers ${where} est bloquée`,
    text: [
      `La livraison vers ${where} échoue depuis le ${at(alert.since)}.`,
      `Réponse du prestataire : ${alert.said}`,
      `À corriger : ${alert.fix}`,
      `Demandes en attente pour ${these} : ${alert.waiting} (${alert.count} essai(s) en échec).`,
      ...(alert.givenUp > 0
        ? [
            `Demandes abandonnées pour ${these} : ${alert.givenUp} ; « leadgate leads replay » les transmet une fois la cause corrigée.`,
          ]
        : []),
      'Rien à relancer : elles partent d’elles-mêmes une fois la cause corrigée, et un message le dira.',
    ].join('\n'),
    mailPathFailing,
  };
}

export function healedAlert(alert: DeliveryAlert): AgencyAlert {
  const { where, these } = placeOf(alert);
  return {
    id: `alert-healed-${alert.key}-${alert.since.getTime()}`,
    subject: `leadgate : la livraison vers ${where} fonctionne de nouveau`,
    text: [
      `Rétabli le ${at(alert.healedAt ?? alert.lastAt)} : la livraison vers ${where} fonctionne de nouveau.`,
      `La cause signalée le ${at(alert.since)} : ${alert.said}`,
      `Demandes encore en attente pour ${these} : ${alert.waiting} ; elles partent maintenant.`,
      ...(alert.givenUp > 0
        ? [
            `Demandes abandonnées pour ${these} : ${alert.givenUp} ; « leadgate leads replay » les transmet maintenant.`,
          ]
        : []),
    ].join('\n'),
    mailPathFailing: false,
  };
}
