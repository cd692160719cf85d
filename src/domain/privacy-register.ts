import type { PrivacyKind } from '../schemas/privacy-request.ts';

/** Where a request came from: the API, the MCP tool, the site's form, or typed in by the agency. */
export type PrivacyChannel = 'api' | 'mcp' | 'form' | 'manual';
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
  kind: PrivacyKind;
  /** The address, as normalizeEmail() writes it; null once erased. */
  address: string | null;
  /** The address's salted hash (People.reference): what the register keeps for good. */
  reference: string;
  status: PrivacyStatus;
  confirmedAt: Date | null;
  /** Who handled it: `lien` for the person's own link, or an agency member's name. */
  handledBy: string | null;
  answeredAt: Date | null;
  note: string | null;
}

export type PrivacyRequestChange = Partial<
  Pick<PrivacyRequestEntry, 'status' | 'confirmedAt' | 'handledBy' | 'answeredAt' | 'note'>
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
