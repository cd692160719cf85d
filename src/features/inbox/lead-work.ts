import type { JournalEntry } from '../../kernel/lead/journal-entry.ts';
import type { ConsentChannel } from '../../kernel/schemas/consent.ts';
import type { LeadKind } from '../../kernel/schemas/lead-kinds.ts';
import type { LeadStatus } from '../../kernel/lead/lead-status.ts';
import type { SpamReason } from '../../kernel/lead/spam-reason.ts';

/*
 * How the agency works its leads (docs/workspace.md, "La boîte de réception"): each lead's work
 * status, assignee, first reading, internal notes and the history of its changes. Delivery status
 * (lead-status.ts) says whether the lead reached the agency; work status says what the agency did.
 */

/** nouveau → en cours → traité, or archivé at any time. */
export const WORK_STATUSES = ['nouveau', 'en-cours', 'traite', 'archive'] as const;
export type WorkStatus = (typeof WORK_STATUSES)[number];
/** The statuses under which a lead still owes its answer; « Traité » and « Archivé » close it. */
export const OPEN_WORK_STATUSES: readonly WorkStatus[] = ['nouveau', 'en-cours'];

export const WORK_STATUS_LABELS: Record<WorkStatus, string> = {
  nouveau: 'Nouveau',
  'en-cours': 'En cours',
  traite: 'Traité',
  archive: 'Archivé',
};

/** Where a lead came from, grouped as the team thinks of it (from its consent record's channel). */
export const LEAD_CHANNELS = ['site', 'api', 'assistant'] as const;
export type LeadChannel = (typeof LEAD_CHANNELS)[number];

export const LEAD_CHANNEL_LABELS: Record<LeadChannel, string> = {
  site: 'Formulaire du site',
  api: 'API',
  assistant: 'Assistant IA (MCP/WebMCP)',
};

/** The consent channels each group covers; a lead journaled before consent records counts as API. */
export const CONSENT_CHANNELS_OF: Record<LeadChannel, readonly ConsentChannel[]> = {
  site: ['form'],
  api: ['api'],
  assistant: ['agent', 'mcp'],
};

export function channelOf(consent: ConsentChannel | undefined): LeadChannel {
  if (consent === 'form') return 'site';
  if (consent === 'agent' || consent === 'mcp') return 'assistant';
  return 'api';
}

/** Who did something in the workspace: a staff account's id and the name it had then. */
export interface StaffRef {
  id: string;
  name: string;
}

export interface WorkState {
  status: WorkStatus;
  /** A staff account's id; null when nobody is assigned. */
  assignee: string | null;
  /** When someone first opened the lead's page (unread until then), and who. */
  readAt: Date | null;
  readBy: string | null;
  /** When the lead first left « nouveau » (the dashboard's « Délai avant « en cours » »). */
  startedAt: Date | null;
  /** Its first answer, an e-mail or a call: the answer promise is kept or broken then. */
  answeredAt: Date | null;
}

/** A journal entry (store.ts, JournalEntry) with the team's work on it. */
export interface InboxEntry extends JournalEntry {
  work: WorkState;
}

export type ActivityKind = 'note' | 'status' | 'assignee';

/** One line of a lead's history: a note, or a change of status or assignee (from → to). */
export interface Activity {
  id: string;
  leadId: string;
  at: Date;
  by: StaffRef;
  kind: ActivityKind;
  /** The note's text, or the new status / assignee id (null: nobody). */
  value: string | null;
  previous: string | null;
}

export interface InboxFilter {
  kinds?: readonly LeadKind[];
  workStatuses?: readonly WorkStatus[];
  /**
   * « À traiter » (docs/workspace.md): no answer given yet and not closed (« Traité », « Archivé »),
   * whatever the status says of the work begun.
   */
  awaitingAnswer?: boolean;
  /** A staff id, or null for « non attribué ». */
  assignee?: string | null;
  receivedFrom?: Date;
  receivedBefore?: Date;
  /** An audit's sector (spec 2.3). */
  sector?: string;
  channels?: readonly LeadChannel[];
  deliveryStatuses?: readonly LeadStatus[];
  /** Words to find in names, e-mails, messages and answers (each word, as a prefix). */
  search?: string;
  unread?: boolean;
  /**
   * Leads held back by the bot trap or the caps (« À vérifier ») instead of the inbox; `also`: both
   * (`leads export`, the whole journal).
   */
  held?: boolean | 'also';
}

export type InboxOrder =
  /** Newest first. */
  | 'newest'
  /** Oldest first: among leads not yet « en cours », the one whose answer is due first. */
  | 'due';

export interface InboxQuery extends InboxFilter {
  order?: InboxOrder;
  /** The cursor a previous page returned. */
  after?: string;
  limit: number;
}

export interface InboxPage {
  entries: InboxEntry[];
  /** The cursor of the next page; undefined on the last. */
  next: string | undefined;
  /** How many leads match the filter, counted up to 1,001 (more than 1,000: « plus de 1 000 »). */
  total: number;
}

/** The team's side of the journal, on both dialects (docs/workspace.md). */
export interface LeadWork {
  page(query: InboxQuery): Promise<InboxPage>;
  /** Every lead matching the filter, newest first unless told, a page at a time, for an export. */
  all(filter: InboxFilter, order?: InboxOrder): AsyncIterable<InboxEntry>;
  find(leadId: string): Promise<InboxEntry | undefined>;
  /** False when the lead does not exist. A status already set records nothing. */
  setStatus(leadId: string, status: WorkStatus, by: StaffRef, at: Date): Promise<boolean>;
  assign(leadId: string, assignee: string | null, by: StaffRef, at: Date): Promise<boolean>;
  /** The first reading only is kept. */
  markRead(leadId: string, by: StaffRef, at: Date): Promise<void>;
  addNote(leadId: string, text: string, by: StaffRef, at: Date): Promise<boolean>;
  /** Notes and changes, oldest first. */
  activity(leadId: string): Promise<Activity[]>;
  /** The latest note of each of these leads (the export's « Dernière note »), by lead id. */
  lastNotes(leadIds: readonly string[]): Promise<Map<string, string>>;
  /**
   * Leads still without an answer (`awaitingAnswer`), of the kinds given, received at or before
   * each cutoff: one count per cutoff, in one query.
   */
  countWaiting(kinds: readonly LeadKind[], cutoffs: readonly Date[]): Promise<number[]>;
  /**
   * Leads received in each period [bounds[i], bounds[i+1]) (ascending bounds, one query), by kind
   * and channel, held leads apart: one list per period.
   */
  countReceived(bounds: readonly Date[]): Promise<ReceivedCount[][]>;
  /** Arrival and first « en cours » of the leads started in [from, to). */
  startTimes(from: Date, to: Date): Promise<{ receivedAt: Date; startedAt: Date }[]>;
  /**
   * Leads the bot trap caught, received in each period of `bounds` as for `countReceived`, by
   * reason: how many were caught (released since included) and how many still wait in « À vérifier ».
   */
  caughtByReason(bounds: readonly Date[]): Promise<CaughtCount[][]>;
}

export interface CaughtCount {
  /** Null for a lead journaled before the reason was kept. */
  reason: SpamReason | null;
  caught: number;
  held: number;
}

export interface ReceivedCount {
  kind: LeadKind;
  channel: LeadChannel;
  held: boolean;
  count: number;
}
