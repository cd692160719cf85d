import type { Kysely, Selectable } from 'kysely';
import { wordingHash, type ConsentRecord } from '../lead/consent.ts';
import { CONSENT_WORDINGS, type ConsentChannel } from '../schemas/consent.ts';
import type { Database, LeadsTable } from './tables.ts';

/**
 * Every published wording is stored once under its SHA-256 at start, before any lead can point at
 * it; an insert that finds the hash already there leaves the first copy (and its date) alone.
 */
export async function storeConsentWordings(db: Kysely<Database>, now: Date): Promise<void> {
  await db
    .insertInto('consent_wordings')
    .values(
      CONSENT_WORDINGS.map((wording) => ({
        hash: wordingHash(wording.text),
        version: wording.version,
        text: wording.text,
        stored_at: now.toISOString(),
      })),
    )
    .onConflict((oc) => oc.column('hash').doNothing())
    .execute();
}

/** The lead's columns that hold its consent record. */
export function consentColumns(consent: ConsentRecord | undefined) {
  return {
    consent_wording: consent?.wordingHash ?? null,
    consent_given_at: consent?.givenAt.toISOString() ?? null,
    consent_channel: consent?.channel ?? null,
    consent_page: consent?.page ?? null,
    consent_network: consent?.network ?? null,
  };
}

const VERSION_BY_HASH = new Map(
  CONSENT_WORDINGS.map((wording) => [wordingHash(wording.text), wording.version]),
);

export function consentOf(row: Selectable<LeadsTable>): ConsentRecord | undefined {
  if (!row.consent_wording || !row.consent_given_at) return undefined;
  return {
    wordingHash: row.consent_wording,
    version: VERSION_BY_HASH.get(row.consent_wording) ?? 'inconnue',
    givenAt: new Date(row.consent_given_at),
    channel: row.consent_channel as ConsentChannel,
    page: row.consent_page,
    network: row.consent_network,
  };
}
