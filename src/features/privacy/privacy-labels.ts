import type {
  PrivacyChannel,
  PrivacyRequestEntry,
  PrivacyRequestKind,
  PrivacyStatus,
} from './privacy-register.ts';
import { PRIVACY_LINK_TTL_MS } from '../../kernel/schemas/privacy-pages.ts';

/**
 * docs/workspace-privacy.md, « Le registre des demandes RGPD »: what the team reads for each value.
 */
export const PRIVACY_CHANNEL_LABELS: Record<PrivacyChannel, string> = {
  api: 'API',
  mcp: 'Assistant IA (MCP)',
  form: 'Formulaire « Vos données »',
  email: 'E-mail',
  letter: 'Courrier',
  phone: 'Téléphone',
  'in-person': 'Sur place',
};

export const PRIVACY_KIND_NAMES: Record<PrivacyRequestKind, string> = {
  access: 'Accès (art. 15)',
  rectification: 'Rectification (art. 16)',
  erasure: 'Effacement (art. 17)',
  restriction: 'Limitation (art. 18)',
  portability: 'Portabilité (art. 20)',
  objection: 'Opposition (art. 21)',
  unsubscribe: 'Désinscription de la newsletter (art. 21)',
};

const STATUS_LABELS: Record<PrivacyStatus, string> = {
  pending: 'En attente de la confirmation de la personne',
  confirmed: 'À traiter',
  done: 'Répondue',
  expired: 'Lien expiré sans confirmation',
};

/** What a request confirmed by its signed link did (privacy-service.ts), when the team wrote nothing. */
const LINK_OUTCOMES: Partial<Record<PrivacyRequestKind, string>> = {
  access: 'Copie envoyée par e-mail à l’adresse',
  erasure: 'Données effacées',
  unsubscribe: 'Désinscription faite',
};

/** Its status; a link left unfollowed past its 7 days reads as expired before anyone opens it. */
export function privacyStatusLabel(entry: PrivacyRequestEntry, now: Date): string {
  const lapsed =
    entry.status === 'pending' && now.getTime() - entry.receivedAt.getTime() > PRIVACY_LINK_TTL_MS;
  return STATUS_LABELS[lapsed ? 'expired' : entry.status];
}

export function identityCheckOf(entry: PrivacyRequestEntry): string {
  if (entry.identityCheck) return entry.identityCheck;
  return entry.confirmedAt ? 'Lien signé suivi depuis l’adresse' : '—';
}

export function outcomeOf(entry: PrivacyRequestEntry): string {
  if (entry.outcome) return entry.outcome;
  return entry.status === 'done' ? (LINK_OUTCOMES[entry.kind] ?? '—') : '—';
}
