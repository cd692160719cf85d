import type { AuditRequest } from '../schemas/audit-request.ts';
import type { ContactRequest } from '../schemas/contact-request.ts';
import type { SubscribeRequest } from '../schemas/subscribe-request.ts';

/** What a caller asked for, once validated: the kind says which schema the data follows. */
export type LeadRequest =
  | { kind: 'contact'; data: ContactRequest }
  | { kind: 'subscribe'; data: SubscribeRequest }
  | { kind: 'audit'; data: AuditRequest };

export type LeadKind = LeadRequest['kind'];
export const LEAD_KINDS: readonly LeadKind[] = ['contact', 'subscribe', 'audit'];

/** A request the journal has accepted: it has an identity and a time of arrival. */
export type Lead = LeadRequest & { id: string; receivedAt: Date };

export function emailOf(request: LeadRequest): string {
  return request.kind === 'contact' ? request.data.EMAIL : request.data.email;
}

/** Addresses are compared case-insensitively, so "Marie@X.fr" is known once subscribed as "marie@x.fr". */
export function normalizeEmail(address: string): string {
  return address.trim().toLowerCase();
}
