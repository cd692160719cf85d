import { frenchCount } from '../../kernel/lead/french-count.ts';
import type { OptOutEntry } from '../newsletter/index.ts';
import type { PrivacyRequestKind } from './privacy-register.ts';
import type { PersonFile } from './journal.ts';
import { html, type SafeHtml } from '../staff/index.ts';
import { DELIVERY_LABELS, kindLabel } from '../inbox/index.ts';
import { PRIVACY_KIND_NAMES } from './privacy-labels.ts';
import { parisTime, scrollingTable } from '../staff/index.ts';

type Row = Record<string, unknown>;

/** docs/workspace-privacy.md, « Personnes et RGPD »: the French name of each table of a person. */
const TABLE_LABELS: Record<string, string> = {
  leads: 'Demandes (formulaires, API, assistant)',
  delivery_steps: 'Étapes de livraison',
  newsletter_confirmations: 'Inscription à la lettre',
  privacy_requests: 'Demandes RGPD',
  lead_activity: 'Suivi de l’équipe (statuts, notes)',
  idempotency_keys: 'Clés anti-doublon des envois',
  known_addresses: 'Adresse déjà connue, par type de demande',
  confirmation_sends: 'E-mails de confirmation envoyés',
};

const when = (value: unknown) => (typeof value === 'string' ? parisTime(new Date(value)) : '—');

/** Rows per table, in the team's words: what an erasure deletes or an access request returns. */
export function rowCounts(counts: Record<string, number>): SafeHtml {
  return html`<ul>${Object.entries(counts).map(([table, count]) => html`<li>${TABLE_LABELS[table] ?? table} : ${frenchCount(count, 'ligne')}</li>`)}</ul>`;
}

export const countsOf = (file: PersonFile) =>
  Object.fromEntries(Object.entries(file.related).map(([table, rows]) => [table, rows.length]));

function leadsTable(file: PersonFile): SafeHtml {
  if (file.leads.length === 0) return html`<p>Aucune demande dans le journal.</p>`;
  const rows = file.leads.map(({ lead, status }) => {
    const consent = lead.consent
      ? html`version ${lead.consent.version}, ${parisTime(lead.consent.givenAt)} (${lead.consent.channel})`
      : 'non enregistré';
    return html`<tr><th scope="row"><a href="/equipe/prospects/${lead.id}">${kindLabel(lead.kind)} du ${parisTime(lead.receivedAt)}</a></th><td data-label="Livraison">${DELIVERY_LABELS[status]}</td><td data-label="Consentement">${consent}</td></tr>`;
  });
  return scrollingTable(
    'Ses demandes',
    html`<table><caption>Ses demandes : ${file.leads.length}</caption><thead><tr><th scope="col">Demande</th><th scope="col">Livraison</th><th scope="col">Consentement</th></tr></thead><tbody>${rows}</tbody></table>`,
  );
}

function stepsTable(steps: Row[]): SafeHtml {
  if (steps.length === 0) return html``;
  return scrollingTable(
    'Étapes de livraison',
    html`<table><caption>Étapes de livraison</caption><thead><tr><th scope="col">Destination</th><th scope="col">État</th><th scope="col">Essais</th><th scope="col">Dernier changement</th></tr></thead><tbody>${steps.map((step) => html`<tr><th scope="row">${String(step.destination)}</th><td data-label="État">${String(step.status)}</td><td data-label="Essais">${String(step.attempts)}</td><td data-label="Dernier changement">${when(step.updated_at)}</td></tr>`)}</tbody></table>`,
  );
}

function subscriptions(rows: Row[]): SafeHtml {
  if (rows.length === 0) return html`<p>Aucune inscription à la lettre.</p>`;
  return html`<ul>${rows.map((row) => html`<li>Inscription confirmée : ${when(row.confirmed_at)} ; retirée : ${when(row.withdrawn_at)}</li>`)}</ul>`;
}

function requests(rows: Row[]): SafeHtml {
  if (rows.length === 0) return html`<p>Aucune demande RGPD à cette adresse.</p>`;
  return html`<ul>${rows.map((row) => html`<li><a href="/equipe/personnes/registre/${String(row.id)}">${PRIVACY_KIND_NAMES[row.kind as PrivacyRequestKind] ?? String(row.kind)} du ${when(row.received_at)}</a></li>`)}</ul>`;
}

/** Everything held about one address (as `leadgate people show`), for the person's page. */
export function personFileView(file: PersonFile, optOut: OptOutEntry | undefined): SafeHtml {
  const {
    delivery_steps = [],
    newsletter_confirmations = [],
    privacy_requests = [],
  } = file.related;
  return html`${optOut ? html`<p class="notice">Dans la liste d’opposition depuis le ${parisTime(optOut.addedAt)} (${optOut.addedBy}${optOut.reason ? html`, ${optOut.reason}` : ''}) : ses demandes sont gardées ici mais transmises à personne.</p>` : ''}
${file.forgottenAt ? html`<p class="notice">Adresse déjà effacée le ${parisTime(file.forgottenAt)} ; ce qui suit est arrivé depuis.</p>` : ''}
<h2>Demandes et consentements</h2>
${leadsTable(file)}
${stepsTable(delivery_steps)}
<h2>Lettre d’information</h2>
${subscriptions(newsletter_confirmations)}
<h2>Demandes RGPD</h2>
${requests(privacy_requests)}
<h2>Tout ce qui est gardé</h2>
${Object.keys(file.related).length ? rowCounts(countsOf(file)) : html`<p>Rien d’autre.</p>`}
<p>Textes de consentement : ${file.consentWordings.length} ; empreinte de l’adresse : <span class="secret">${file.reference.slice(0, 16)}</span>.</p>`;
}
