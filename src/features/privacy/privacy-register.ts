import { PRIVACY_KINDS } from '../../kernel/schemas/privacy-request.ts';

/** The ways a person's request reaches the agency without leadgate: typed in by the team. */
export const MANUAL_PRIVACY_CHANNELS = ['email', 'letter', 'phone', 'in-person'] as const;

/** Where a request came from: the API, the MCP tool, the site's form, or a manual channel. */
export type PrivacyChannel = 'api' | 'mcp' | 'form' | (typeof MANUAL_PRIVACY_CHANNELS)[number];

/**
 * What a person may ask (RGPD art. 15 to 21): the kinds the site and the API take (which the
 * person's signed link carries out), and the others the team enters by hand and answers itself.
 */
export const MANUAL_PRIVACY_KINDS = [
  ...PRIVACY_KINDS,
  'rectification',
  'restriction',
  'portability',
  'objection',
] as const;
export type PrivacyRequestKind = (typeof MANUAL_PRIVACY_KINDS)[number];
export type PrivacyStatus = 'pending' | 'confirmed' | 'done' | 'expired';

/**
 * One line of the register of requests about people's data (docs/consent.md, "Requests about
 * one's data"). The address is kept only while the request needs it: an erasure blanks it on every
 * line of that address, and the line keeps what proves the answer (the address's salted hash, the
 * dates).
 */
export interface PrivacyRequestEntry {
  id: string;
  receivedAt: Date;
  channel: PrivacyChannel;
  kind: PrivacyRequestKind;
  /** The address, as normalizeEmail() writes it; null once erased. */
  address: string | null;
  /** The address's salted hash (People.reference): what the register keeps for good. */
  reference: string;
  status: PrivacyStatus;
  confirmedAt: Date | null;
  /** Who handled it: `lien` for the person's own link, or an agency member's name. */
  handledBy: string | null;
  answeredAt: Date | null;
  /** The person's message, or the team's note on a request entered by hand. */
  note: string | null;
  /** How the team made sure the request came from the person (a signed link needs none). */
  identityCheck: string | null;
  /** What was done, in the team's words (a signed link's request says it by its kind). */
  outcome: string | null;
}

export type PrivacyRequestChange = Partial<
  Pick<
    PrivacyRequestEntry,
    'status' | 'confirmedAt' | 'handledBy' | 'answeredAt' | 'note' | 'identityCheck' | 'outcome'
  >
>;

/** The register in the journal database, for the requests and the agency's workspace. */
export interface PrivacyRegister {
  add(entry: PrivacyRequestEntry): Promise<void>;
  find(id: string): Promise<PrivacyRequestEntry | undefined>;
  /** Newest first. */
  list(filter?: { statuses?: readonly PrivacyStatus[] }): Promise<PrivacyRequestEntry[]>;
  update(id: string, change: PrivacyRequestChange): Promise<void>;
  /** Marks a pending request confirmed, once: false when it was not pending any more (single use). */
  confirm(id: string, at: Date): Promise<boolean>;
}
