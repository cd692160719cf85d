import { hostname } from 'node:os';
import { frenchDateTime } from '../lead/french-date.ts';

/**
 * What the agency is told when this node cannot journal for longer than JOURNAL_ALERT_AFTER_MS
 * (docs/operations.md, « What fails open, what never does »): the same shape as a delivery alert
 * (docs/delivery.md, « Alerts »), so it takes the same channels (e-mail, ALERT_WEBHOOK_URL).
 */
export interface JournalAlert {
  id: string;
  subject: string;
  text: string;
  mailPathFailing: false;
}

/** docs/operations.md: a journal refusing writes this long is announced (once per cause). */
export const JOURNAL_ALERT_AFTER_MS = 120_000;

export function journalFailingAlert(reason: string, since: Date): JournalAlert {
  return {
    id: `journal-failing-${hostname()}-${reason}-${since.getTime()}`,
    subject: `leadgate : le journal du serveur ${hostname()} refuse les écritures`,
    text: [
      `Depuis le ${frenchDateTime(since)}, le journal du serveur ${hostname()} refuse les écritures (${reason}).`,
      'Les demandes qu’il reçoit sont refusées (erreur 500, rien n’est perdu en silence) et /readyz répond 503 : un répartiteur de charge envoie les visiteurs vers les autres serveurs.',
      'À corriger : l’espace disque et les droits sous DATA_DIR, ou la base PostgreSQL (DATABASE_URL).',
      'Rien à relancer : le serveur reprend de lui-même dès qu’une écriture passe, et un message le dira.',
    ].join('\n'),
    mailPathFailing: false,
  };
}

export function journalHealedAlert(reason: string, since: Date, at: Date): JournalAlert {
  return {
    id: `journal-healed-${hostname()}-${reason}-${since.getTime()}`,
    subject: `leadgate : le journal du serveur ${hostname()} accepte de nouveau les écritures`,
    text: `Rétabli le ${frenchDateTime(at)} : le journal du serveur ${hostname()} accepte de nouveau les écritures (refusées depuis le ${frenchDateTime(since)}, ${reason}).`,
    mailPathFailing: false,
  };
}
