import type { Config } from '../config.ts';
import type { Lead } from '../domain/lead.ts';
import { emailOf } from '../domain/lead.ts';
import { BrevoError, type BrevoClient } from './brevo-client.ts';

export type BrevoLists = Pick<
  Config['mail']['brevo'],
  'contactListId' | 'newsletterListId' | 'auditListId'
>;

/** Body of Brevo's `POST /contacts` (definition `createContact`). */
export interface CreateContact {
  email: string;
  attributes: Record<string, string>;
  listIds?: number[];
  updateEnabled: true;
}

/*
 * The contact form's field names are the Brevo attribute names (capitals, as Brevo requires). EMAIL
 * is the identity, SMS__COUNTRY_CODE is folded into SMS, and TOOL_DATA (a JSON blob of up to 20 000
 * characters) stays in the journal and the agency's e-mail rather than in a CRM text attribute.
 */
const CONTACT_ATTRIBUTES = [
  'PRENOM',
  'NOM',
  'JOB_TITLE',
  'TYPE_BESOIN',
  'SERVICE',
  'DEMANDE',
  'TOOL_SOURCE',
] as const;

export function contactPayload(lead: Lead, lists: BrevoLists): CreateContact {
  const attributes: Record<string, string> = {};
  let listId: number | undefined;
  let phone: string | undefined;
  if (lead.kind === 'contact') {
    for (const name of CONTACT_ATTRIBUTES) {
      const value = lead.data[name];
      if (value) attributes[name] = value;
    }
    phone = internationalNumber(lead.data.SMS, lead.data.SMS__COUNTRY_CODE);
    listId = lists.contactListId;
  } else {
    attributes.PRENOM = lead.data.firstName;
    if (lead.data.lastName) attributes.NOM = lead.data.lastName;
    if (lead.kind === 'audit') phone = internationalNumber(lead.data.phone, undefined);
    listId = lead.kind === 'subscribe' ? lists.newsletterListId : lists.auditListId;
  }
  if (phone) attributes.SMS = phone;
  return {
    email: emailOf(lead),
    attributes,
    ...(listId !== undefined && { listIds: [listId] }),
    updateEnabled: true,
  };
}

/**
 * Brevo only accepts SMS with its country prefix (+33…, 0033… or 33…). We build that form when we
 * can tell the prefix (SMS__COUNTRY_CODE, or a number already written +… / 00…) and leave SMS out
 * otherwise: a number Brevo cannot read must not cost the lead, and the agency's e-mail carries it.
 */
export function internationalNumber(
  number: string | undefined,
  countryCode: string | undefined,
): string | undefined {
  if (!number) return undefined;
  const digits = number.replace(/[\s.\-()/]/g, '');
  if (/^\+\d{6,15}$/.test(digits)) return digits;
  if (/^00\d{6,15}$/.test(digits)) return `+${digits.slice(2)}`;
  const prefix = countryCode?.replace(/[\s()]/g, '').replace(/^00/, '+');
  if (!prefix || !/^\+?\d{1,4}$/.test(prefix) || !/^\d{4,14}$/.test(digits)) return undefined;
  // A national number keeps its trunk 0 at home (06…) but drops it after the prefix (+33 6…).
  return `+${prefix.replace(/^\+/, '')}${digits.replace(/^0/, '')}`;
}

export interface UpsertResult {
  /** 201 → false, 204 → true; undefined when Brevo answered another 2xx (the journal then decides). */
  existing: boolean | undefined;
  detail: string;
}

/**
 * Creates or updates the contact in one call (`updateEnabled: true`) and reads "already known" from
 * the status Brevo's contract gives: 201 created, 204 updated. See docs/brevo.md for why one upsert
 * rather than create-then-update. If Brevo refuses only the phone number (malformed, or already held
 * by another contact: `duplicate_identifiers: ['SMS']`), the contact is saved once more without it.
 */
export async function upsertContact(
  post: BrevoClient,
  payload: CreateContact,
  signal: AbortSignal,
): Promise<UpsertResult> {
  let answer;
  try {
    answer = await post('/contacts', payload, signal);
  } catch (error) {
    if (!(payload.attributes.SMS && isPhoneRefusal(error))) throw error;
    const attributes = { ...payload.attributes };
    delete attributes.SMS;
    answer = await post('/contacts', { ...payload, attributes }, signal);
  }
  if (answer.status === 201) {
    const id = (answer.body as { id?: unknown } | undefined)?.id;
    return {
      existing: false,
      detail: `contact created${typeof id === 'number' ? ` (id ${id})` : ''}`,
    };
  }
  if (answer.status === 204) return { existing: true, detail: 'contact updated' };
  return { existing: undefined, detail: `contact saved (${answer.status})` };
}

function isPhoneRefusal(error: unknown): boolean {
  if (!(error instanceof BrevoError) || error.status !== 400) return false;
  const duplicates = error.metadata?.duplicate_identifiers;
  if (Array.isArray(duplicates))
    return duplicates.some((name) => String(name).toUpperCase() === 'SMS');
  return /\b(sms|phone|mobile)\b/i.test(error.message);
}
