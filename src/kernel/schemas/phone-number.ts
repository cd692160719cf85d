import { parsePhoneNumberFromString, type PhoneNumber } from 'libphonenumber-js';

/*
 * docs/api-decisions.md, "Phone numbers": a phone field (the contact's SMS with its
 * SMS__COUNTRY_CODE, the audit's phone) is read by libphonenumber-js, Google's numbering plan data
 * kept up to date, rather than by hand: a national number in France by default, the trunk 0 kept or
 * not after a prefix (`+33 06 12 34 56 78` is `+33612345678`). A number that cannot exist is refused
 * by the schema (the `x-phone` keyword, src/schemas/compile-schema.ts); the journal keeps what was
 * sent, and everything that dials it (tel: links, the CRM) reads its E.164 form from here.
 */

/** Where a number written without a prefix is read (the agency works in France). */
export const DEFAULT_PHONE_REGION = 'FR';

/** The schema keyword of a phone field: the sibling field holding its country prefix, if any. */
export interface PhoneKeyword {
  countryCodeField?: string;
}

/** « +33 », « 0033 », « 33 » → "33"; anything else (« France ») is no prefix. */
function callingCode(countryCode: string | undefined): string | undefined {
  const digits = countryCode
    ?.replace(/[\s()]/g, '')
    .replace(/^00/, '+')
    .replace(/^\+/, '');
  return digits && /^\d{1,4}$/.test(digits) ? digits : undefined;
}

function parse(number: string, countryCode: string | undefined): PhoneNumber | undefined {
  const written = number.trim().replace(/^00/, '+');
  const code = callingCode(countryCode);
  return parsePhoneNumberFromString(
    written,
    code && !written.startsWith('+')
      ? { defaultCallingCode: code }
      : { defaultCountry: DEFAULT_PHONE_REGION },
  );
}

/** The number in E.164 (`+33612345678`), or undefined when no such number can exist. */
export function e164(
  number: string | undefined,
  countryCode?: string | undefined,
): string | undefined {
  if (!number?.trim()) return undefined;
  const parsed = parse(number, countryCode);
  return parsed?.isValid() ? parsed.number : undefined;
}

/** As the team reads it: « 06 12 34 56 78 » for a French number, « +32 470 12 34 56 » otherwise. */
export function phoneDisplay(
  number: string | undefined,
  countryCode?: string | undefined,
): string | undefined {
  if (!number?.trim()) return undefined;
  const parsed = parse(number, countryCode);
  if (!parsed?.isValid()) return undefined;
  return parsed.country === DEFAULT_PHONE_REGION
    ? parsed.formatNational()
    : parsed.formatInternational();
}

/** The phone of a request, by the fields its descriptor names: as the team reads it, and to dial. */
export function requestPhone(
  data: object,
  fields: { phone?: string; phoneCountryCode?: string },
): { display: string; dial: string | undefined } | undefined {
  const text = (name: string | undefined) => {
    const value = name === undefined ? undefined : (data as Record<string, unknown>)[name];
    return typeof value === 'string' && value.trim() !== '' ? value : undefined;
  };
  const number = text(fields.phone);
  if (number === undefined) return undefined;
  const code = text(fields.phoneCountryCode);
  // A lead journaled before numbers were checked keeps its text as sent, with no link to dial.
  return {
    display: phoneDisplay(number, code) ?? (code ? `${code} ${number}` : number),
    dial: e164(number, code),
  };
}
