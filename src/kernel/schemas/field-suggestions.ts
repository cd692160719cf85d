import { closest, distance } from 'fastest-levenshtein';

/*
 * docs/api-decisions.md, "Errors an agent can act on": an unknown field is most often a known one
 * spelled otherwise (`PRÉNOM`, `PRENON`, `first_name`) or named as another API names it
 * (`FIRSTNAME`, `TELEPHONE`, `PHONE` for the contact's `SMS`). The closest known field, by
 * Levenshtein distance (fastest-levenshtein) over the names with case, accents and separators set
 * aside, and by the aliases below, is suggested as a rename that keeps the value.
 */

/** Which of the endpoint's fields say who the person is (its descriptor's `fields`). */
export interface PersonFields {
  email?: string;
  firstName?: string;
  lastName?: string;
  phone?: string;
}

/** Other names for a person's fields, in nameKey() form, whatever the endpoint calls them. */
const ALIASES: Record<keyof PersonFields, readonly string[]> = {
  firstName: ['prenom', 'firstname', 'givenname', 'forename'],
  lastName: ['nom', 'lastname', 'surname', 'familyname', 'nomdefamille'],
  email: ['email', 'mail', 'courriel', 'emailaddress', 'adresseemail', 'adressemail'],
  phone: [
    'telephone',
    'phone',
    'tel',
    'mobile',
    'portable',
    'phonenumber',
    'numerodetelephone',
    'numero',
    'cellphone',
    'gsm',
    'sms',
  ],
};

/** A field's name with case, accents and separators set aside: « PRÉNOM », « first_name ». */
export function nameKey(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

/** How far a name may be from a known one to be taken for it: one slip in four letters. */
const allowedDistance = (length: number) => (length <= 4 ? 1 : length <= 8 ? 2 : 3);

/** The known field an unknown one most likely stands for, or undefined when none is close. */
export function suggestField(
  sent: string,
  knownFields: readonly string[],
  person: PersonFields = {},
): string | undefined {
  const key = nameKey(sent);
  if (key === '') return undefined;
  const spellings = new Map<string, string>();
  for (const field of knownFields) spellings.set(nameKey(field), field);
  for (const [concept, aliases] of Object.entries(ALIASES) as [keyof PersonFields, string[]][]) {
    const field = person[concept];
    if (field === undefined || !knownFields.includes(field)) continue;
    for (const alias of aliases) if (!spellings.has(alias)) spellings.set(alias, field);
  }
  const exact = spellings.get(key);
  if (exact !== undefined) return exact === sent ? undefined : exact;
  if (spellings.size === 0) return undefined;
  const nearest = closest(key, [...spellings.keys()]);
  return distance(key, nearest) <= allowedDistance(key.length) ? spellings.get(nearest) : undefined;
}
