import { randomUUID } from 'node:crypto';
import type { StaffAuditEntry } from './staff.ts';

/**
 * docs/workspace-security.md, "Audit trail": every action the trail records, with its French label
 * for the journal page. A new staff action adds its line here.
 */
export const STAFF_ACTIONS = {
  'sign-in': 'Connexion',
  'sign-in-failed': 'Connexion refusée',
  'sign-in-throttled': 'Connexion freinée (trop d’essais)',
  'sign-out': 'Déconnexion',
  'sign-out-everywhere': 'Déconnexion de toutes les sessions',
  invite: 'Invitation envoyée',
  'password-set': 'Mot de passe choisi',
  disable: 'Compte désactivé',
  enable: 'Compte réactivé',
  'require-totp': 'Double authentification exigée',
  'totp-enabled': 'Double authentification activée',
  'totp-disabled': 'Double authentification retirée',
  'recovery-codes': 'Codes de secours renouvelés',
  'recovery-code-used': 'Code de secours utilisé',
  'reauthentication-failed': 'Mot de passe ou code refusé pour une action protégée',
  'view-lead': 'Consultation d’une demande',
  'view-person': 'Consultation d’une personne',
  'download-person': 'Téléchargement des données d’une personne',
  export: 'Export',
  erase: 'Effacement d’une personne',
  release: 'Demande sortie des spams',
  replay: 'Envoi relancé',
  'attach-message': 'Message rattaché à la main',
  'dismiss-message': 'Message sans demande écarté',
  'status-change': 'Changement de statut',
  assign: 'Attribution',
  note: 'Note ajoutée',
  answer: 'Réponse envoyée par e-mail',
  call: 'Réponse par téléphone enregistrée',
  'mailbox-answer': 'Réponse depuis sa messagerie enregistrée',
  'privacy-request-add': 'Demande RGPD enregistrée',
  'privacy-request-update': 'Demande RGPD mise à jour',
  'opt-out-add': 'Adresse ajoutée à la liste d’opposition',
  'opt-out-remove': 'Adresse retirée de la liste d’opposition',
} as const satisfies Record<string, string>;

export type StaffAction = keyof typeof STAFF_ACTIONS;

export function staffActionLabel(action: string): string {
  return (STAFF_ACTIONS as Record<string, string>)[action] ?? action;
}

/** One line of the trail; `actor` defaults to the account's address (the CLI names itself). */
export function auditEntry(
  staff: { id: string; email: string } | null,
  action: StaffAction,
  at: Date,
  target: string | null = null,
  detail: string | null = null,
  actor = staff?.email ?? 'inconnu',
): StaffAuditEntry {
  return { id: randomUUID(), at, staffId: staff?.id ?? null, actor, action, target, detail };
}
