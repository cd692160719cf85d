import type { Lead } from '../domain/lead.ts';
import { emailOf } from '../domain/lead.ts';
import { escapeHtml, headerSafe, type MailMessage, type MailSettings } from './mail-message.ts';

const TITLES: Record<Lead['kind'], string> = {
  contact: 'Nouvelle demande de contact',
  subscribe: 'Nouvelle inscription à la lettre',
  audit: 'Nouvelle demande d’audit',
};

/** Every field of the lead, for the agency's inbox; questionnaire answers are listed one per line. */
export function leadFields(lead: Lead): [string, string][] {
  const rows: [string, string][] = [];
  for (const [name, value] of Object.entries(lead.data)) {
    if (typeof value === 'string') rows.push([name, value]);
    else if (value && typeof value === 'object') {
      for (const [question, answer] of Object.entries(value)) rows.push([question, String(answer)]);
    }
  }
  return rows;
}

function firstNameOf(lead: Lead): string {
  return lead.kind === 'contact' ? lead.data.PRENOM : lead.data.firstName;
}

export function agencyNotification(lead: Lead, settings: MailSettings): MailMessage {
  const fields = leadFields(lead);
  const who = headerSafe(firstNameOf(lead), 60);
  const sector = lead.kind === 'audit' && lead.data.sector ? ` (${lead.data.sector})` : '';
  const intro = `${TITLES[lead.kind]}${sector}, reçue le ${lead.receivedAt.toISOString()} (réf. ${lead.id}).`;
  const text = [intro, '', ...fields.map(([name, value]) => `${name} : ${value}`)].join('\n');
  const rows = fields
    .map(
      ([name, value]) =>
        `<tr><th align="left">${escapeHtml(name)}</th><td>${escapeHtml(value)}</td></tr>`,
    )
    .join('');
  return {
    role: 'notification',
    to: { name: 'Agence', address: settings.agencyEmail },
    // Brevo caps replyTo.name at 70 characters.
    replyTo: { name: who, address: emailOf(lead) },
    subject: headerSafe(`${TITLES[lead.kind]}${sector} : ${who}`, 150),
    text,
    html: `<!doctype html><html lang="fr"><body><p>${escapeHtml(intro)}</p><table>${rows}</table></body></html>`,
  };
}
