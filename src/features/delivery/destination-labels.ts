/*
 * docs/workspace.md, « Sur un téléphone »: a delivery destination as the team names it, where
 * the journal keeps a technical name (`agency-notification`, `webhook:<host>:<digest>`, see
 * src/providers/webhooks/webhook-destination.ts). The technical name stays behind a disclosure.
 */
const DESTINATION_LABELS: Record<string, string> = {
  'agency-notification': 'Notification à l’équipe',
  'confirmation-email': 'E-mail de confirmation',
  'double-opt-in-email': 'E-mail de confirmation d’inscription à la lettre',
  'crm-contact': 'Contact dans le CRM (Brevo)',
  'newsletter-unsubscribe': 'Désinscription de la lettre',
};

/** « Notification à l’équipe », « Webhook vers crm.agence.fr »; an unknown name as it is. */
export function destinationLabel(destination: string): string {
  const webhook = /^webhook:(.+):[0-9a-f]+$/.exec(destination);
  if (webhook) return `Webhook vers ${webhook[1]}`;
  return DESTINATION_LABELS[destination] ?? destination;
}
