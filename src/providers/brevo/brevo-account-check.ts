import { BrevoError, type BrevoClient } from './brevo-client.ts';
import { BREVO_ATTRIBUTES } from './brevo-contact.ts';

/** What leadgate will ask of the Brevo account: the lists it is set to use, the sender it sends as. */
export interface BrevoExpectations {
  /** Each list setting with its id (`BREVO_CONTACT_LIST_ID` → 7), the unset ones left out. */
  lists: Record<string, number>;
  /** MAIL_FROM's address. */
  sender: string;
}

/** Brevo pages its lists (at most 50 a page, `getLists`). */
const LISTS_PER_PAGE = 50;

/**
 * docs/brevo.md, « leadgate config check »: reads what the account holds (`getAttributes`,
 * `getLists`, `getSenders`, `getDomains`), three to five GETs that change nothing, and says in
 * French what the first lead would be refused for: an attribute to create, a list id that does not
 * exist, a sender not validated. Empty when nothing is missing. A key Brevo refuses, or no answer,
 * is one line, since nothing else can then be read.
 */
export async function checkBrevoAccount(
  get: (path: string) => Promise<unknown>,
  expected: BrevoExpectations,
): Promise<string[]> {
  try {
    return [
      ...(await missingAttributes(get)),
      ...(await missingLists(get, expected.lists)),
      ...(await senderProblem(get, expected.sender)),
    ];
  } catch (error) {
    if (!(error instanceof BrevoError)) throw error;
    const said = error.status === 401 ? 'BREVO_API_KEY : Brevo refuse la clé' : 'BREVO_API_URL';
    return [`${said} (${error.message}) ; rien d’autre n’a pu être lu.`];
  }
}

/** A BrevoClient's GET, its answer's body. */
export function brevoGet(client: BrevoClient, signal: AbortSignal) {
  return async (path: string) => (await client(path, undefined, signal, 'GET')).body;
}

async function missingAttributes(get: (path: string) => Promise<unknown>): Promise<string[]> {
  const { attributes = [] } = (await get('/contacts/attributes')) as {
    attributes?: { name: string }[];
  };
  const held = new Set(attributes.map((attribute) => attribute.name.toUpperCase()));
  return BREVO_ATTRIBUTES.filter((name) => !held.has(name)).map(
    (name) =>
      `Attribut de contact « ${name} » absent : le créer dans Brevo (Contacts › Paramètres › Attributs de contact, type Texte).`,
  );
}

async function missingLists(
  get: (path: string) => Promise<unknown>,
  lists: Record<string, number>,
): Promise<string[]> {
  if (Object.keys(lists).length === 0) return [];
  const held = new Set<number>();
  for (let offset = 0; ; offset += LISTS_PER_PAGE) {
    const page = (await get(`/contacts/lists?limit=${LISTS_PER_PAGE}&offset=${offset}`)) as {
      lists?: { id: number }[];
      count?: number;
    };
    for (const list of page.lists ?? []) held.add(list.id);
    if ((page.lists ?? []).length < LISTS_PER_PAGE || held.size >= (page.count ?? 0)) break;
  }
  return Object.entries(lists)
    .filter(([, id]) => !held.has(id))
    .map(
      ([setting, id]) =>
        `${setting}=${id} : aucune liste n’a ce numéro dans Brevo (Contacts › Listes) ; corriger le réglage ou créer la liste.`,
    );
}

async function senderProblem(
  get: (path: string) => Promise<unknown>,
  sender: string,
): Promise<string[]> {
  const address = sender.toLowerCase();
  const { senders = [] } = (await get('/senders')) as {
    senders?: { email: string; active?: boolean }[];
  };
  if (senders.some((known) => known.email.toLowerCase() === address && known.active !== false)) {
    return [];
  }
  // A domain authenticated in Brevo lets any of its addresses send.
  const { domains = [] } = (await get('/senders/domains')) as {
    domains?: { domain_name: string; authenticated?: boolean; verified?: boolean }[];
  };
  const domain = address.split('@')[1];
  if (domains.some((known) => known.domain_name === domain && known.authenticated)) return [];
  return [
    `MAIL_FROM : l’expéditeur ${sender} n’est pas validé dans Brevo (Expéditeurs, domaines et IP dédiées) : valider cette adresse ou authentifier le domaine ${domain}.`,
  ];
}
