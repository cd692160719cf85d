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

/** One lead still « nouveau », as the summary lists it. */
export interface WaitingLead {
  id: string;
  name: string;
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

/** What the day's summary says (docs/workspace.md, « Le point du matin »). */
export interface TeamSummaryFacts {
  at: Date;
  /** The leads listed, the answer due first (at most a page of them). */
  waiting: WaitingLead[];
  /** All the leads waiting, listed or not, and how many of them are overdue. */
  waitingTotal: number;
  overdue: number;
  /** Leads held in « À vérifier », and how many only for being sent too fast. */
  held: number;
  heldTooFast: number;
  /** TEAM_SUMMARY_TIME, to say when the next one comes. */
  minutesAfterMidnight: number;
}

function leadBlock(lead: WaitingLead, siteUrl: string): MailBlock {
  const what = `${lead.name} · ${lead.kind}${lead.topic ? `, ${lead.topic}` : ''}`;
  const when =
    lead.leftMs <= 0
      ? `En retard depuis le ${frenchDateTime(lead.dueAt)}`
      : `Réponse due avant le ${frenchDateTime(lead.dueAt)}, encore ${frenchDuration(lead.leftMs)} ouvrées`;
  return {
    kind: 'paragraph',
    text: `${what}\nReçue le ${frenchDateTime(lead.receivedAt)}. ${when}.${lead.inbound?.map((line) => `\n${line}.`).join('') ?? ''}`,
    link: { label: 'Ouvrir la fiche', url: workspaceLeadUrl(siteUrl, lead.id) },
  };
}

/**
 * The team's daily e-mail (docs/emails.md): the leads not yet « en cours », the one whose answer
 * is due first on top, the overdue ones under their own heading, then what waits in « À vérifier »,
 * each with a link to its page in the workspace. To AGENCY_EMAIL, like the notifications.
 */
export function teamSummaryEmail(facts: TeamSummaryFacts, settings: MailSettings): MailMessage {
  const { identity, siteUrl } = settings;
  const { waiting, waitingTotal, overdue, held, heldTooFast } = facts;
  const late = waiting.filter((lead) => lead.leftMs <= 0);
  const onTime = waiting.filter((lead) => lead.leftMs > 0);
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
          ...late.map((lead) => leadBlock(lead, siteUrl)),
        ]
      : []),
    ...(onTime.length
      ? [
          { kind: 'heading' as const, text: `À traiter (${waitingTotal - overdue})` },
          ...onTime.map((lead) => leadBlock(lead, siteUrl)),
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
    mentions: waiting.map((lead) => lead.id),
    to: { name: identity.agencyName, address: settings.agencyEmail },
    subject: headerSafe(`Le point du ${day} : ${status}`, 150),
    text: mailText(page, identity, siteUrl),
    html: mailHtml(page, identity, siteUrl),
  };
}
