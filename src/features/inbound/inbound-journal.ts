/** An attachment as the lead page lists it: never kept (docs/inbound.md, « Pièces jointes »). */
export interface AttachmentNote {
  name: string;
  size: number;
  type: string;
}

/** How a message found its lead (docs/inbound.md, « Rattachement »); `staff`: attached by hand. */
export type MatchedBy = 'header' | 'address' | 'staff';

/** A message from a prospect, as journaled. */
export interface InboundMessage {
  id: string;
  leadId: string | null;
  from: string;
  receivedAt: Date;
  source: 'brevo' | 'raw';
  messageId: string | null;
  subject: string;
  body: string;
  quoted: string;
  attachments: AttachmentNote[];
  matchedBy: MatchedBy | null;
  /** Why it waits in « À vérifier » (French, for the team); null when attached. */
  reviewReason: string | null;
  readAt: Date | null;
}

/** docs/inbound.md, « Rebonds et plaintes »: what the providers said of an address. */
export type AddressState = 'unreachable' | 'mailbox-full' | 'soft-bounce' | 'complaint';

export interface AddressFlag {
  email: string;
  state: AddressState;
  softBounces: number;
  reason: string | null;
  flaggedAt: Date;
}

/** What one bounce or complaint says, whoever reported it (Brevo's event, an SMTP DSN). */
export type AddressEvent = 'hard' | 'soft' | 'complaint';

/** The part of the journal the inbound routes write and the workspace reads. */
export interface InboundJournal {
  /**
   * The lead one of these Message-IDs of ours was sent for (a delivery step's provider answer, or
   * a team's answer, each of which keeps its own).
   */
  leadOfSentMessage(messageIds: readonly string[]): Promise<string | undefined>;
  /** The latest lead of this address, if any. */
  latestLeadOf(address: string): Promise<string | undefined>;
  /** Journals a message; false when one with this id is already there (a provider's retry). */
  add(message: Omit<InboundMessage, 'readAt'>): Promise<boolean>;
  /** A lead's messages, oldest first. */
  ofLead(leadId: string): Promise<InboundMessage[]>;
  /** The messages no lead was found for, newest first. */
  unmatched(limit: number): Promise<InboundMessage[]>;
  /** How many messages wait for a lead (« À vérifier »'s count in the navigation). */
  countUnmatched(): Promise<number>;
  /**
   * A member attaches a message of « À vérifier » to a lead (unread there, as any prospect
   * message); false when it waits no more (attached or dismissed meanwhile, by another tab).
   */
  attach(id: string, leadId: string): Promise<boolean>;
  /** A member dismisses a message of « À vérifier »: deleted; false when it waits no more. */
  dismiss(id: string): Promise<boolean>;
  /** Opening the lead reads its messages. */
  markRead(leadId: string, byName: string, at: Date): Promise<void>;
  /** Which of these leads have a message nobody opened. */
  unreadAmong(leadIds: readonly string[]): Promise<Set<string>>;
  /**
   * docs/inbound.md, « Le point du matin »: the leads with a message nobody opened (the latest
   * message first), then the leads still « nouveau » or « en cours » whose address is flagged
   * (unreachable, full, complaint), at most `limit` ids.
   */
  leadsToSee(limit: number): Promise<string[]>;
  /** Records a bounce or complaint; answers the address's state after it. */
  flag(
    address: string,
    event: AddressEvent,
    reason: string | null,
    at: Date,
    softRepeats: number,
  ): Promise<AddressFlag>;
  /** The flags of these addresses (as given), for lists. */
  flagsAmong(addresses: readonly string[]): Promise<Map<string, AddressFlag>>;
}
