import {
  frenchDateTime,
  frenchDay,
  frenchDuration,
  frenchPlural,
} from '../../kernel/lead/french-date.ts';
import type { MailBlock } from '../../kernel/mail/mail-blocks.ts';
import { mailHtml, mailText, type MailPage } from '../../kernel/mail/mail-layout.ts';
import { headerSafe, type MailMessage, type MailSettings } from '../../kernel/mail/mail-message.ts';
import { workspaceLeadUrl } from '../intake/index.ts';

/** One lead still waiting for its answer, as the summary lists it. */
export interface WaitingLead {
  id: string;
  name: string;
  /** The person's address: their requests are one entry. */
  email: string;
  /** « Contact », « Audit »: the workspace's label. */
  kind: string;
  /** The trade or the sector, when the lead names one. */
  topic: string;
  receivedAt: Date;
  dueAt: Date;
  /** Business time left before `dueAt`; zero or less once overdue. */
  leftMs: number;
  /** docs/inbound.md: « Nouveau message du prospect », « Adresse injoignable : appelez plutôt… ». */
  inbound?: string[];
}

/** A lead already « en cours » (or later) with something to see: an unread message, a flag. */
export interface LeadToSee {
  id: string;
  name: string;
  kind: string;
  /** docs/inbound.md: « Nouveau message du prospect », « Adresse injoignable : appelez plutôt… ». */
  lines: string[];
}

/** What the day's summary says (docs/emails.md, « The daily summary »). */
export interface TeamSummaryFacts {
  at: Date;
  /** The leads listed, the answer due first (at most a page of them). */
  waiting: WaitingLead[];
  /** The other leads with an unread prospect message or a flagged address (docs/inbound.md). */
  toSee: LeadToSee[];
  /** All the leads waiting, listed or not, and how many of them are overdue. */
  waitingTotal: number;
  overdue: number;
  /** Leads held in « À vérifier », and how many only for being sent too fast. */
  held: number;
  heldTooFast: number;
  /** TEAM_SUMMARY_TIME, to say when the next one comes. */
  minutesAfterMidnight: number;
}

/** « Contact, Avocate — reçue le …. Réponse due avant le … »: one request of a person. */
function requestLine(lead: WaitingLead): string {
  const when =
    lead.leftMs <= 0
      ? `en retard depuis le ${frenchDateTime(lead.dueAt)}`
      : `réponse due avant le ${frenchDateTime(lead.dueAt)}, encore ${frenchDuration(lead.leftMs)} ouvrées`;
  return `${lead.kind}${lead.topic ? `, ${lead.topic}` : ''} : reçue le ${frenchDateTime(lead.receivedAt)}, ${when}.${lead.inbound?.map((line) => `\n${line}.`).join('') ?? ''}`;
}

/**
 * One entry per person (docs/emails.md, « The daily summary »): the name in bold, then each of
 * their requests, the most urgent first; the link opens it, or their requests when there are more.
 */
function personBlock(requests: readonly WaitingLead[], siteUrl: string): MailBlock {
  const [first] = requests as [WaitingLead, ...WaitingLead[]];
  return {
    kind: 'paragraph',
    strong: first.name,
    text: requests.map(requestLine).join('\n'),
    link:
      requests.length > 1
        ? {
            label: `Ouvrir ses ${requests.length} demandes`,
            url: `${siteUrl}/equipe?q=${encodeURIComponent(first.email)}`,
          }
        : { label: 'Ouvrir la fiche', url: workspaceLeadUrl(siteUrl, first.id) },
  };
}

/** The leads grouped by person, in the order of each person's most urgent request. */
function byPerson(leads: readonly WaitingLead[]): WaitingLead[][] {
  const groups = new Map<string, WaitingLead[]>();
  for (const lead of leads) {
    const key = lead.email.toLowerCase();
    groups.set(key, [...(groups.get(key) ?? []), lead]);
  }
  return [...groups.values()];
}

/**
 * The team's daily e-mail (docs/emails.md): the leads not yet « en cours », the one whose answer
 * is due first on top, the overdue ones under their own heading, then what waits in « À vérifier »,
 * each with a link to its page in the workspace. To AGENCY_EMAIL, like the notifications.
 */
export function teamSummaryEmail(facts: TeamSummaryFacts, settings: MailSettings): MailMessage {
  const { identity, siteUrl } = settings;
  const { waiting, waitingTotal, overdue, held, heldTooFast } = facts;
  const people = byPerson(waiting);
  const late = people.filter(([first]) => first!.leftMs <= 0);
  const onTime = people.filter(([first]) => first!.leftMs > 0);
  const inbox = `${siteUrl}/equipe?statut=nouveau&tri=echeance`;
  const hidden = waitingTotal - waiting.length;
  const time = frenchDuration(facts.minutesAfterMidnight * 60_000).replace(/\u00a0min$/, '');
  const blocks: MailBlock[] = [
    { kind: 'paragraph', text: identity.texts.greeting.anonymous },
    {
      kind: 'paragraph',
      text: waitingTotal
        ? `${waitingTotal} ${frenchPlural(waitingTotal, 'demande n’est', 'demandes ne sont')} pas encore « en cours »${overdue ? `, dont ${overdue} en retard` : ''}. Le site promet une réponse sous 24 heures ouvrées : la plus urgente est en tête.`
        : 'Aucune demande n’attend de réponse : toutes sont « en cours », traitées ou archivées.',
    },
    ...(late.length
      ? [
          { kind: 'heading' as const, text: `En retard (${overdue})` },
          ...late.map((requests) => personBlock(requests, siteUrl)),
        ]
      : []),
    ...(onTime.length
      ? [
          { kind: 'heading' as const, text: `À traiter (${waitingTotal - overdue})` },
          ...onTime.map((requests) => personBlock(requests, siteUrl)),
        ]
      : []),
    ...(hidden > 0
      ? [
          {
            kind: 'paragraph' as const,
            text: `Et ${hidden} ${frenchPlural(hidden, 'autre', 'autres')} dans l’espace équipe.`,
            link: { label: 'Toutes les demandes en attente', url: inbox },
          },
        ]
      : []),
    ...(facts.toSee.length
      ? [
          { kind: 'heading' as const, text: `Messages et adresses (${facts.toSee.length})` },
          ...facts.toSee.map((lead): MailBlock => ({
            kind: 'paragraph',
            strong: lead.name,
            text: `${lead.kind} : ${lead.lines.join('. ')}.`,
            link: { label: 'Ouvrir la fiche', url: workspaceLeadUrl(siteUrl, lead.id) },
          })),
        ]
      : []),
    { kind: 'heading', text: 'À vérifier' },
    held
      ? {
          kind: 'paragraph',
          text: `${held} ${frenchPlural(held, 'demande retenue', 'demandes retenues')} par le piège à robots ${frenchPlural(held, 'attend', 'attendent')} dans « À vérifier »${heldTooFast ? `, dont ${heldTooFast} ${frenchPlural(heldTooFast, 'envoyée', 'envoyées')} trop vite : peut-être de vraies personnes` : ''}.`,
          link: { label: 'Ouvrir « À vérifier »', url: `${siteUrl}/equipe/a-verifier` },
        }
      : { kind: 'paragraph', text: 'Rien n’attend dans « À vérifier ».' },
    { kind: 'button', label: 'Ouvrir l’espace équipe', url: inbox },
    {
      kind: 'paragraph',
      small: true,
      text: `Ce point part chaque jour ouvré à ${time} (heure de Paris, réglage TEAM_SUMMARY_TIME).`,
    },
  ];
  const day = frenchDay(facts.at);
  const page: MailPage = {
    title: `Le point du ${day}`,
    preview: waitingTotal ? `${waitingTotal} en attente, ${overdue} en retard` : 'Rien en attente',
    blocks,
  };
  const status = waitingTotal
    ? `${waitingTotal} ${frenchPlural(waitingTotal, 'demande attend', 'demandes attendent')} une réponse${overdue ? `, dont ${overdue} en retard` : ''}`
    : 'aucune demande en attente';
  return {
    role: 'team-summary',
    // docs/consent.md: it names people, so an erasure removes a copy kept of it too.
    mentions: [...waiting, ...facts.toSee].map((lead) => lead.id),
    to: { name: identity.agencyName, address: settings.agencyEmail },
    subject: headerSafe(`Le point du ${day} : ${status}`, 150),
    text: mailText(page, identity, siteUrl),
    html: mailHtml(page, identity, siteUrl),
  };
}
