import { randomUUID } from 'node:crypto';
import {
  leadKindOf,
  textField,
  type LeadKindDescriptor,
  type LeadRequest,
} from '../schemas/lead-kinds.ts';
import type { ConsentRecord } from './consent.ts';

/**
 * A request the journal has accepted: it has an identity, a time of arrival and the proof of the
 * person's consent (absent only for leads journaled before consent was recorded).
 */
export type Lead = LeadRequest & {
  id: string;
  receivedAt: Date;
  consent?: ConsentRecord;
  /**
   * Set for the agency's notification only (src/kernel/lead/confirmation-cap.ts): true when the
   * caps on e-mails to unverified addresses held back the e-mail to this lead's address.
   */
  confirmationHeldBack?: boolean;
};

/** The address the lead came from, in the field its kind names (a required field of every schema). */
export function emailOf(
  request: LeadRequest,
  kind: LeadKindDescriptor = leadKindOf(request.kind),
): string {
  return textField(request.data, kind.fields.email) ?? '';
}

/** The first name the person gave (required by every schema). */
export function firstNameOf(
  request: LeadRequest,
  kind: LeadKindDescriptor = leadKindOf(request.kind),
): string {
  return textField(request.data, kind.fields.firstName) ?? '';
}

/**
 * How the team names a lead (docs/workspace.md): « Marie Dupont », the first and last names given,
 * or the address when the person gave no name.
 */
export function leadName(request: LeadRequest): string {
  const kind = leadKindOf(request.kind);
  const name = [kind.fields.firstName, kind.fields.lastName]
    .map((field) => textField(request.data, field))
    .filter(Boolean)
    .join(' ');
  return name || emailOf(request, kind);
}

/** Addresses are compared case-insensitively, so "Marie@X.fr" is known once subscribed as "marie@x.fr". */
export function normalizeEmail(address: string): string {
  return address.trim().toLowerCase();
}

/**
 * A new lead's id: a UUID version 7 (RFC 9562), whose first 48 bits are the time in milliseconds, so
 * the journal's indexes on lead ids grow at their end instead of touching a random page per lead
 * (docs/performance.md, "The accept path"). Written from Node's randomUUID, which draws from a
 * cached pool: the uuid package's v7 asks WebCrypto for 16 bytes per id, 3 % of an accept's CPU. The
 * 74 random bits and the variant are the version 4 UUID's own.
 */
export function newLeadId(now = Date.now()): string {
  const time = now.toString(16).padStart(12, '0');
  const random = randomUUID();
  return `${time.slice(0, 8)}-${time.slice(8)}-7${random.slice(15)}`;
}
