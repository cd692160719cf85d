import type { Config } from '../../kernel/config.ts';
import type { Lead } from '../../kernel/lead/lead.ts';
import { emailOf } from '../../kernel/lead/lead.ts';
import {
  leadKindOf,
  textField,
  type BrevoListSetting,
  type LeadKindDescriptor,
} from '../../kernel/schemas/lead-kinds.ts';
import { BrevoError, type BrevoClient } from './brevo-client.ts';

export type BrevoLists = Pick<Config['mail']['brevo'], BrevoListSetting>;

/** Body of Brevo's `POST /contacts` (definition `createContact`). */
export interface CreateContact {
  email: string;
  attributes: Record<string, string>;
  listIds?: number[];
  /** Never true: an unauthenticated form must not rewrite a known contact (docs/brevo.md). */
  updateEnabled: false;
}

/*
 * The names of the person (PRENOM, NOM) and the phone (SMS) come from the fields the lead's kind names.
 * The contact form's other field names are Brevo attribute names already (capitals, as Brevo requires)
 * and are copied when present. TOOL_DATA (a JSON blob of up to 20 000 characters) stays in the journal
 * and the agency's e-mail rather than in a CRM text attribute.
 */
const COPIED_ATTRIBUTES = [
  'JOB_TITLE',
  'TYPE_BESOIN',
  'SERVICE',
  'DEMANDE',
  'TOOL_SOURCE',
] as const;

/** Every contact attribute leadgate may send: each must exist in the account (docs/brevo.md). */
export const BREVO_ATTRIBUTES: readonly string[] = ['PRENOM', 'NOM', 'SMS', ...COPIED_ATTRIBUTES];

export function contactPayload(
  lead: Lead,
  lists: BrevoLists,
  kind: LeadKindDescriptor = leadKindOf(lead.kind),
): CreateContact {
  const field = (name: string | undefined) => textField(lead.data, name);
  const attributes: Record<string, string> = {};
  const copy = (attribute: string, value: string | undefined) => {
    if (value) attributes[attribute] = value;
  };
  copy('PRENOM', field(kind.fields.firstName));
  copy('NOM', field(kind.fields.lastName));
  for (const name of COPIED_ATTRIBUTES) copy(name, field(name));
  copy('SMS', internationalNumber(field(kind.fields.phone), field(kind.fields.phoneCountryCode)));
  const listId = lists[kind.brevoList.setting];
  return {
    email: emailOf(lead, kind),
    attributes,
    ...(listId !== undefined && { listIds: [listId] }),
    updateEnabled: false,
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

export interface SaveResult {
  /** 201 → false, already a contact → true; undefined when Brevo answered another 2xx (the journal then decides). */
  existing: boolean | undefined;
  detail: string;
}

/**
 * Creates the contact if Brevo does not know the address (201), and otherwise only adds it to the
 * list: anyone can type anyone's address in a form, so a known contact's name, phone or answers are
 * never overwritten from a request nobody authenticated (docs/brevo.md, "Known contacts"). If Brevo
 * refuses only the phone number (malformed, or already held by another contact:
 * `duplicate_identifiers: ['SMS']`), the contact is created once more without it.
 */
export async function saveContact(
  post: BrevoClient,
  payload: CreateContact,
  signal: AbortSignal,
): Promise<SaveResult> {
  let answer;
  try {
    answer = await post('/contacts', payload, signal);
  } catch (error) {
    if (isKnownAddress(error)) return addKnownContactToList(post, payload, signal);
    if (!(payload.attributes.SMS && isPhoneRefusal(error))) throw error;
    const attributes = { ...payload.attributes };
    delete attributes.SMS;
    return saveContact(post, { ...payload, attributes }, signal);
  }
  if (answer.status === 201) {
    const id = (answer.body as { id?: unknown } | undefined)?.id;
    return {
      existing: false,
      detail: `contact created${typeof id === 'number' ? ` (id ${id})` : ''}`,
    };
  }
  return { existing: undefined, detail: `contact saved (${answer.status})` };
}

/** `POST /contacts/lists/{listId}/contacts/add` touches list membership only, never attributes. */
async function addKnownContactToList(
  post: BrevoClient,
  payload: CreateContact,
  signal: AbortSignal,
): Promise<SaveResult> {
  const listId = payload.listIds?.[0];
  if (listId === undefined) return { existing: true, detail: 'contact known, attributes kept' };
  try {
    await post(`/contacts/lists/${listId}/contacts/add`, { emails: [payload.email] }, signal);
  } catch (error) {
    // Brevo answers 400 when the contact is already in the list: that is the state we wanted.
    if (!(error instanceof BrevoError && error.status === 400 && /already/i.test(error.message))) {
      throw error;
    }
  }
  return { existing: true, detail: `contact known, attributes kept, in list ${listId}` };
}

/** Brevo's 400 duplicate_parameter for the address itself (not for a phone held by another contact). */
function isKnownAddress(error: unknown): boolean {
  if (!(error instanceof BrevoError) || error.status !== 400) return false;
  if (error.code !== undefined && error.code !== 'duplicate_parameter') return false;
  const duplicates = error.metadata?.duplicate_identifiers;
  if (Array.isArray(duplicates)) {
    return duplicates.some((name) => String(name).toLowerCase() === 'email');
  }
  return /\bemail\b/i.test(error.message) && /already|exist/i.test(error.message);
}

function isPhoneRefusal(error: unknown): boolean {
  if (!(error instanceof BrevoError) || error.status !== 400) return false;
  const duplicates = error.metadata?.duplicate_identifiers;
  if (Array.isArray(duplicates))
    return duplicates.some((name) => String(name).toUpperCase() === 'SMS');
  return /\b(sms|phone|mobile)\b/i.test(error.message);
}

/**
 * docs/consent.md, "Unsubscribe": `POST /contacts/lists/{listId}/contacts/remove` takes the address
 * off the list and keeps the contact (an erasure is `people forget`). Brevo answers 400 when the
 * address is not in the list (or not a contact): the state we wanted.
 */
export async function removeFromList(
  post: BrevoClient,
  listId: number | undefined,
  email: string,
  signal: AbortSignal,
): Promise<string> {
  if (listId === undefined) return 'no newsletter list set';
  try {
    await post(`/contacts/lists/${listId}/contacts/remove`, { emails: [email] }, signal);
  } catch (error) {
    if (!(error instanceof BrevoError && error.status === 400)) throw error;
    return `not in list ${listId} (already removed)`;
  }
  return `removed from list ${listId}`;
}
