import { createHash } from 'node:crypto';
import ipaddr from 'ipaddr.js';
import { isDottedQuad } from './dotted-quad.ts';
import {
  CONSENT_WORDINGS,
  currentWording,
  wordingsFor,
  type ConsentChannel,
  type ConsentWording,
} from '../schemas/consent.ts';
import type { LeadKind } from '../schemas/lead-kinds.ts';

/** What the caller tells about the consent it collected, and where the request came from. */
export interface ConsentEvidence {
  channel: ConsentChannel;
  /** A wording version the caller named; absent, the current wording of the request's kind. */
  version?: string;
  page?: string;
  /** The client's address as the server saw it (after TRUST_PROXY). */
  clientAddress?: string;
}

/**
 * The proof kept with every lead (RGPD art. 7.1, docs/consent.md): which text, when, through which
 * channel and page, from which network. The network is truncated (IPv4 /24, IPv6 /48): enough to
 * tell a household or company from a bot farm, not enough to name a device.
 */
export interface ConsentRecord {
  /** SHA-256 (hex) of the wording's text: the key of the wording in the journal. */
  wordingHash: string;
  version: string;
  givenAt: Date;
  channel: ConsentChannel;
  page: string | null;
  network: string | null;
}

export function wordingHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The published wordings are few and fixed: each is hashed once at start, not once per lead. */
const HASH_OF_WORDING = new Map(
  CONSENT_WORDINGS.map((wording) => [wording, wordingHash(wording.text)]),
);

export function consentRecord(
  kind: LeadKind,
  evidence: ConsentEvidence,
  givenAt: Date,
): { record: ConsentRecord; wording: ConsentWording } {
  const wording =
    wordingsFor(kind).find((candidate) => candidate.version === evidence.version) ??
    currentWording(kind);
  return {
    wording,
    record: {
      wordingHash: HASH_OF_WORDING.get(wording) ?? wordingHash(wording.text),
      version: wording.version,
      givenAt,
      channel: evidence.channel,
      page: evidence.page || null,
      network: evidence.clientAddress ? truncatedNetwork(evidence.clientAddress) : null,
    },
  };
}

/** "203.0.113.57" → "203.0.113.0/24", "2001:db8:1:2::5" → "2001:db8:1::/48"; IPv4-mapped IPv6 as IPv4. */
export function truncatedNetwork(address: string): string | null {
  // What a socket reports for IPv4 needs no parsing (docs/performance.md, "The accept path").
  if (isDottedQuad(address)) return `${address.slice(0, address.lastIndexOf('.'))}.0/24`;
  if (!ipaddr.isValid(address)) return null;
  const parsed = ipaddr.process(address);
  const prefix = parsed.kind() === 'ipv4' ? 24 : 48;
  const bytes = parsed.toByteArray();
  const kept = prefix / 8;
  const masked = bytes.map((byte, index) => (index < kept ? byte : 0));
  const network = ipaddr.fromByteArray(masked);
  return `${network.toString()}/${prefix}`;
}
