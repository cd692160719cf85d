import type { JournalEntry } from '../../kernel/journal/store.ts';
import { emailOf } from '../../kernel/lead/lead.ts';
import { leadKindOf } from '../../kernel/schemas/lead-kinds.ts';
import { requestPhone } from '../../kernel/schemas/phone-number.ts';
import type { Store } from '../../kernel/journal/store.ts';
import { html, parisTime, type SafeHtml } from '../staff/index.ts';
import type { AddressFlag, AddressState, InboundMessage, MatchedBy } from './inbound-journal.ts';

/** docs/inbound.md, « Ce que l’équipe voit »: what a flag says, in the team's words. */
export const FLAG_LABELS: Record<AddressState, string | undefined> = {
  unreachable: 'Adresse injoignable',
  'mailbox-full': 'Boîte pleine',
  complaint: 'Signalé comme spam',
  // One or two soft bounces say nothing yet (SOFT_BOUNCE_REPEATS).
  'soft-bounce': undefined,
};

const sizeFormat = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 1 });

/** « 12 Ko », « 3,4 Mo »: an attachment's size as the team reads it. */
export function frenchSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} octets`;
  if (bytes < 1024 * 1024) return `${sizeFormat.format(bytes / 1024)} Ko`;
  return `${sizeFormat.format(bytes / (1024 * 1024))} Mo`;
}

/** Text as text: escaped by `html`, paragraphs at blank lines, line breaks kept; never HTML. */
export function textBlock(text: string): SafeHtml[] {
  return text
    .split(/\n\s*\n/)
    .filter((paragraph) => paragraph.trim())
    .map(
      (paragraph) =>
        html`<p>${paragraph
          .trim()
          .split('\n')
          .map((line, index) => (index ? [html`<br>`, line] : line))}</p>`,
    );
}

function phoneOf(entry: JournalEntry) {
  return requestPhone(entry.lead.data, leadKindOf(entry.lead.kind).fields);
}

/** « Adresse injoignable · Appelez plutôt au … » (docs/inbound.md), or nothing. */
export function flagNotice(flag: AddressFlag | undefined, entry: JournalEntry): SafeHtml | '' {
  const label = flag && FLAG_LABELS[flag.state];
  if (!label) return '';
  const phone = phoneOf(entry);
  const number = phone?.dial
    ? html`<a href="tel:${phone.dial}">${phone.display}</a>`
    : phone?.display;
  return html`<strong>${label}</strong>${phone ? html` · Appelez plutôt au ${number}` : ''}`;
}

/** The sentence the daily summary says of a flagged address (docs/inbound.md). */
function flagSentence(flag: AddressFlag | undefined, entry: JournalEntry): string | undefined {
  const label = flag && FLAG_LABELS[flag.state];
  if (!label) return undefined;
  const phone = phoneOf(entry);
  return phone ? `${label} : appelez plutôt au ${phone.display}` : label;
}

/** docs/inbound.md, « Rattachement »: how the message found this lead, when not by our headers. */
const MATCHED_WORDS: Record<MatchedBy, string> = {
  header: '',
  address: ' (rattaché par son adresse)',
  staff: ' (rattaché à la main depuis « À vérifier »)',
};

function messageBlock(message: InboundMessage, unread: boolean): SafeHtml {
  return html`<article class="inbound-message">
<h3>${unread ? 'Nouveau message du prospect' : 'Message du prospect'}</h3>
<p>Reçu le ${parisTime(message.receivedAt)} de ${message.from}${message.subject ? html`, objet « ${message.subject} »` : ''}${MATCHED_WORDS[message.matchedBy ?? 'header']}.</p>
${textBlock(message.body)}
${message.quoted ? html`<details><summary>Historique cité</summary>${textBlock(message.quoted)}</details>` : ''}
${message.attachments.length ? html`<p>Pièces jointes (non conservées : demandez-les à la personne si besoin) :</p><ul>${message.attachments.map((attachment) => html`<li>${attachment.name} (${frenchSize(attachment.size)})</li>`)}</ul>` : ''}
</article>`;
}

/**
 * The lead page's part (docs/inbound.md): the flag of the address and the prospect's messages,
 * the unread ones shown as « Nouveau message du prospect » once, then read by this opening.
 */
export async function leadInboundSection(
  store: Store,
  entry: JournalEntry,
  reader: string,
  now: Date,
): Promise<SafeHtml> {
  const id = entry.lead.id;
  const [messages, flags] = await Promise.all([
    store.inbound.ofLead(id),
    store.inbound.flagsAmong([emailOf(entry.lead)]),
  ]);
  if (messages.some((message) => !message.readAt)) await store.inbound.markRead(id, reader, now);
  const notice = flagNotice(flags.get(emailOf(entry.lead)), entry);
  return html`${notice ? html`<p class="notice">${notice}</p>` : ''}
${messages.length ? html`<h2>Messages du prospect</h2>${messages.map((message) => messageBlock(message, !message.readAt))}` : ''}`;
}

/** The list's marks: leads with an unread message, and each row's badges. */
export async function inboundMarks(store: Store, entries: readonly JournalEntry[]) {
  const [unread, flags] = await Promise.all([
    store.inbound.unreadAmong(entries.map((entry) => entry.lead.id)),
    store.inbound.flagsAmong(entries.map((entry) => emailOf(entry.lead))),
  ]);
  return {
    unread,
    badges(entry: JournalEntry): SafeHtml {
      const notice = flagNotice(flags.get(emailOf(entry.lead)), entry);
      return html`${unread.has(entry.lead.id) ? html` <span class="badge">Nouveau message du prospect</span>` : ''}${notice ? html` <span class="badge">${notice}</span>` : ''}`;
    },
    /** The same, as the daily summary's text says it. */
    sentences(entry: JournalEntry): string[] {
      const flag = flagSentence(flags.get(emailOf(entry.lead)), entry);
      return [
        ...(unread.has(entry.lead.id) ? ['Nouveau message du prospect'] : []),
        ...(flag ? [flag] : []),
      ];
    },
  };
}

/**
 * « À vérifier »'s part: the messages no lead was found for, with the reason, each followed by
 * `actions` (the workspace's controls to attach it by hand or dismiss it, docs/inbound.md).
 */
export async function unmatchedSection(
  store: Store,
  actions: (message: InboundMessage) => Promise<SafeHtml> | SafeHtml,
): Promise<SafeHtml> {
  const messages = await store.inbound.unmatched(100);
  const blocks = await Promise.all(
    messages.map(
      async (message) =>
        html`<article class="inbound-message" id="message-${message.id}"><h3>De ${message.from || 'expéditeur inconnu'}, le ${parisTime(message.receivedAt)}</h3><p><strong>${message.reviewReason ?? ''}</strong></p>${textBlock(message.body)}${await actions(message)}</article>`,
    ),
  );
  return html`<h2>Messages sans demande</h2>
${messages.length ? html`<p>Ces messages n’ont pu être rattachés à aucune demande : rattachez-les à la bonne, ou écartez-les.</p>${blocks}` : html`<p>Aucun.</p>`}`;
}
