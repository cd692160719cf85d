import { frenchDateTime, frenchPlural } from '../../kernel/lead/french-date.ts';
import { blocksText, type MailBlock } from '../../kernel/mail/mail-blocks.ts';
import { oneLine } from '../../kernel/schemas/one-line.ts';
import { destinationWords, plainCause, technicalWords } from './alert-words.ts';
import { destinationLabel } from './destination-labels.ts';
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
  /** Failed attempts this record adds (those before the cause opened, on the first): 1 when unset. */
  count?: number;
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
  /** The leads it holds back (waiting or given up), oldest first, at most a page of them. */
  leads: readonly AffectedLead[];
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

/** A lead a cause holds back or a step given up: named, with a link to its page (« Relancer »). */
export interface AffectedLead {
  id: string;
  name: string;
  receivedAt: Date;
  /** Given up (`dead`): it waits for « Relancer » on its page. */
  givenUp: boolean;
}

/** The lead's page in the workspace, as an absolute URL (SITE_URL + leadPagePath). */
export type LeadUrl = (leadId: string) => string;

/** What goes to the agency, by e-mail and through ALERT_WEBHOOK_URL (docs/delivery.md, « Alerts »). */
export interface AgencyAlert {
  /** Names this message for good (the e-mail's idempotency key and Message-ID derive from it). */
  id: string;
  subject: string;
  /** The heading of the e-mail, in the agency's mail layout (src/kernel/mail/mail-layout.ts). */
  title: string;
  blocks: readonly MailBlock[];
  /** The same blocks as text: what ALERT_WEBHOOK_URL posts. */
  text: string;
  /**
   * The failing destination is the agency's own e-mail path (the provider's e-mails): an e-mail
   * about it would likely fail the same way, so it goes by the other channel.
   */
  mailPathFailing: boolean;
}

export function agencyAlert(parts: Omit<AgencyAlert, 'text'>): AgencyAlert {
  return { ...parts, text: blocksText(parts.blocks) };
}

/** At most this many leads are named in one alert; the rest are counted (the dashboard lists them). */
const NAMED_LEADS = 20;

/** « Marie Dupont, reçue le 2 décembre 2026 à 8 h 16 », each with a link to its page. */
export function leadBlocks(
  leads: readonly AffectedLead[],
  leadUrl: LeadUrl,
  said: (lead: AffectedLead) => string = () => '',
): MailBlock[] {
  const rest = leads.length - NAMED_LEADS;
  return [
    ...leads.slice(0, NAMED_LEADS).map((lead): MailBlock => ({
      kind: 'paragraph',
      text: `${oneLine(lead.name)}, reçue le ${at(lead.receivedAt)}${said(lead)}.`,
      link: { label: 'Ouvrir la fiche', url: leadUrl(lead.id) },
    })),
    ...(rest > 0
      ? [
          {
            kind: 'paragraph' as const,
            text: `Et ${rest} ${frenchPlural(rest, 'autre', 'autres')}.`,
          },
        ]
      : []),
  ];
}

/**
 * When, as the agency reads it (« 28 novembre 2026 à 2 h 54 », Paris time): an ISO timestamp would
 * also be read by the alert channel's masking as a phone number (docs/delivery.md, « Alerts »).
 */
const at = frenchDateTime;

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * « le webhook vers crm.example répond 500 »: the cause of an alert in plain words; a cause that
 * holds every destination of a provider names the provider's sending service.
 */
export function causeWords(
  alert: Pick<DeliveryAlert, 'key' | 'destination' | 'said' | 'provider' | 'holds'>,
): string {
  return `${labelOf(alert)} ${plainCause(alert.said, alert.key.endsWith(':unreachable'))}`;
}

function labelOf(alert: Pick<DeliveryAlert, 'destination' | 'provider' | 'holds'>): string {
  return alert.holds.length > 1
    ? `le service d’envoi ${alert.provider}`
    : destinationWords(alert.destination).label;
}

/** « 3 demandes attendent, 1 demande abandonnée ». */
function heldWords({ waiting, givenUp }: Pick<DeliveryAlert, 'waiting' | 'givenUp'>): string {
  return [
    `${waiting} ${frenchPlural(waiting, 'demande attend', 'demandes attendent')}`,
    ...(givenUp > 0
      ? [`${givenUp} ${frenchPlural(givenUp, 'demande abandonnée', 'demandes abandonnées')}`]
      : []),
  ].join(', ');
}

export function openedAlert(
  alert: DeliveryAlert,
  mailPathFailing: boolean,
  leadUrl: LeadUrl,
): AgencyAlert {
  const cause = causeWords(alert);
  return agencyAlert({
    id: `alert-open-${alert.key}-${alert.since.getTime()}`,
    subject: `Livraison bloquée : ${cause}`,
    title: 'Des demandes ne partent plus',
    blocks: [
      {
        kind: 'paragraph',
        text: `${capitalized(cause)} depuis le ${at(alert.since)} (heure de Paris) : ${heldWords(alert)}.`,
      },
      // docs/delivery.md, « Alerts »: a cause that holds several destinations names each of them.
      ...(alert.holds.length > 1
        ? [
            {
              kind: 'paragraph' as const,
              text: `Envois retenus : ${alert.holds.map(destinationLabel).join(', ')}.`,
            },
          ]
        : []),
      ...(alert.leads.length > 0
        ? [
            { kind: 'heading' as const, text: 'Demandes concernées' },
            ...leadBlocks(alert.leads, leadUrl),
          ]
        : []),
      { kind: 'heading', text: 'Ce qu’il faut vérifier' },
      { kind: 'paragraph', text: `À corriger : ${alert.fix}` },
      {
        kind: 'paragraph',
        text: 'Les demandes en attente partent d’elles-mêmes une fois la cause corrigée, et un message le dira ; une demande abandonnée repart avec « Relancer » sur sa fiche.',
      },
      { kind: 'paragraph', small: true, text: `Réponse technique : ${technicalWords(alert.said)}` },
    ],
    mailPathFailing,
  });
}

export function healedAlert(alert: DeliveryAlert, leadUrl: LeadUrl): AgencyAlert {
  const label = labelOf(alert);
  return agencyAlert({
    id: `alert-healed-${alert.key}-${alert.since.getTime()}`,
    subject: `Livraison rétablie : ${label} fonctionne de nouveau`,
    title: 'Les demandes repartent',
    blocks: [
      {
        kind: 'paragraph',
        text: `${capitalized(label)} fonctionne de nouveau depuis le ${at(alert.healedAt ?? alert.lastAt)} (heure de Paris), après un blocage signalé le ${at(alert.since)}.`,
      },
      {
        kind: 'paragraph',
        text: `${alert.waiting} ${frenchPlural(alert.waiting, 'demande encore en attente part', 'demandes encore en attente partent')} maintenant.`,
      },
      ...(alert.givenUp > 0
        ? [
            {
              kind: 'paragraph' as const,
              text: `${alert.givenUp} ${frenchPlural(alert.givenUp, 'demande abandonnée attend', 'demandes abandonnées attendent')} « Relancer » sur sa fiche :`,
            },
            ...leadBlocks(
              alert.leads.filter((lead) => lead.givenUp),
              leadUrl,
            ),
          ]
        : []),
    ],
    mailPathFailing: false,
  });
}
