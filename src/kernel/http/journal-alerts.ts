import { hostname } from 'node:os';
import { frenchDateTime } from '../lead/french-date.ts';
import { blocksText, type MailBlock } from '../mail/mail-blocks.ts';

/**
 * What the agency is told when this node cannot journal for longer than JOURNAL_ALERT_AFTER_MS
 * (docs/operations.md, « What fails open, what never does »): the shape of a delivery alert
 * (docs/delivery.md, « Alerts »), so it takes the same channels (e-mail, ALERT_WEBHOOK_URL).
 */
export interface JournalAlert {
  id: string;
  subject: string;
  title: string;
  blocks: readonly MailBlock[];
  text: string;
  mailPathFailing: false;
}

/** docs/operations.md: a journal refusing writes this long is announced (once per cause). */
export const JOURNAL_ALERT_AFTER_MS = 120_000;

function journalAlert(parts: Omit<JournalAlert, 'text' | 'mailPathFailing'>): JournalAlert {
  return { ...parts, text: blocksText(parts.blocks), mailPathFailing: false };
}

export function journalFailingAlert(reason: string, since: Date): JournalAlert {
  const host = hostname();
  return journalAlert({
    id: `journal-failing-${host}-${reason}-${since.getTime()}`,
    subject: `Journal bloqué : le serveur ${host} refuse les écritures`,
    title: 'Le serveur ne peut plus enregistrer de demandes',
    blocks: [
      {
        kind: 'paragraph',
        text: `Depuis le ${frenchDateTime(since)} (heure de Paris), le journal du serveur ${host} refuse les écritures (${reason}).`,
      },
      {
        kind: 'paragraph',
        text: 'Les demandes qu’il reçoit sont refusées (erreur 500 : rien n’est perdu en silence) et /readyz répond 503, pour qu’un répartiteur de charge envoie les visiteurs vers les autres serveurs.',
      },
      {
        kind: 'paragraph',
        text: 'À vérifier : l’espace disque et les droits sous DATA_DIR, ou la base PostgreSQL (DATABASE_URL).',
      },
      {
        kind: 'paragraph',
        text: 'Rien à relancer : le serveur reprend de lui-même dès qu’une écriture passe, et un message le dira.',
      },
    ],
  });
}

export function journalHealedAlert(reason: string, since: Date, at: Date): JournalAlert {
  const host = hostname();
  return journalAlert({
    id: `journal-healed-${host}-${reason}-${since.getTime()}`,
    subject: `Journal rétabli : le serveur ${host} enregistre de nouveau`,
    title: 'Le serveur enregistre de nouveau les demandes',
    blocks: [
      {
        kind: 'paragraph',
        text: `Rétabli le ${frenchDateTime(at)} (heure de Paris) : le journal du serveur ${host} accepte de nouveau les écritures, refusées depuis le ${frenchDateTime(since)} (${reason}).`,
      },
    ],
  });
}
