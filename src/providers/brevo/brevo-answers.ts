import type { BrevoError } from './brevo-client.ts';
import type { BrevoLists } from './brevo-contact.ts';

/**
 * What a Brevo error means for the step (docs/brevo.md, « What Brevo's answers mean »):
 * - `refused`: it concerns this one address (invalid, blocked): sending again would be refused
 *   again, the step ends `refused` and the lead shows it;
 * - `misconfigured`: it concerns the account or leadgate's settings (an attribute, a list, a sender,
 *   a template, the key): every lead would meet it, so the step is retried and the agency is told
 *   once what to fix (`cause` names it, `fix` says where);
 * - `transient`: Brevo failed or did not answer (408, 429, 5xx, network): retried.
 */
export type BrevoVerdict =
  | { verdict: 'refused' }
  | { verdict: 'misconfigured'; cause: string; fix: string }
  | { verdict: 'transient' };

const LIST_SETTINGS: Record<keyof BrevoLists, string> = {
  contactListId: 'BREVO_CONTACT_LIST_ID',
  newsletterListId: 'BREVO_NEWSLETTER_LIST_ID',
  auditListId: 'BREVO_AUDIT_LIST_ID',
};

const MISSING =
  /not found|does ?n[o']t exist|not exist|unknown|invalid|not valid|inactive|missing/i;
/** Words of Brevo's answers about one address or one contact (`Invalid email address`, `blacklisted`). */
const ABOUT_AN_ADDRESS = /\b(e-?mail|address|contact|recipient|to|reply-?to|sms|phone|mobile)\b/i;
const REFUSING_AN_ADDRESS = /invalid|not valid|malformed|format|blacklist|blocked|unsubscribed/i;

export function classifyBrevoError(
  error: BrevoError,
  lists: BrevoLists,
  templateId: number | undefined,
): BrevoVerdict {
  const { status } = error;
  // A 2xx that is not JSON, 408, 429, 5xx, no answer: Brevo's side, retried.
  if (status === undefined || status < 400 || status === 408 || status === 429 || status >= 500) {
    return { verdict: 'transient' };
  }
  const said = `${error.code ?? ''} ${error.reason ?? ''}`;
  const misconfigured = (cause: string, fix: string): BrevoVerdict => ({
    verdict: 'misconfigured',
    cause: `brevo:${cause}`,
    fix,
  });
  if (status === 401) {
    return misconfigured(
      'api-key',
      'BREVO_API_KEY : Brevo refuse cette clé (en créer une dans Brevo › SMTP et API › Clés API)',
    );
  }
  if (status === 402) {
    return misconfigured('credits', 'le crédit d’envoi du compte Brevo (Brevo › Mon offre)');
  }
  if (/\bip\b/i.test(said) || status === 403) {
    return misconfigured(
      'account',
      'les droits du compte Brevo (compte en cours de validation, ou adresse IP de ce serveur à autoriser dans Brevo › Sécurité › IP autorisées)',
    );
  }
  if (/template/i.test(said)) {
    return misconfigured(
      'template',
      `BREVO_CONTACT_TEMPLATE_ID : le modèle n° ${templateId ?? '?'} n’existe pas ou n’est pas actif dans Brevo (Campagnes › Modèles)`,
    );
  }
  const attribute = /attribute[s]?\s*[«"'`:]?\s*([A-Za-z0-9_]+)/i.exec(error.reason ?? '');
  if (attribute && MISSING.test(said)) {
    const name = attribute[1]!.toUpperCase();
    return misconfigured(
      `attribute:${name}`,
      `l’attribut ${name} : le créer dans Brevo (Contacts › Paramètres › Attributs de contact, type Texte), docs/brevo.md`,
    );
  }
  const listId = listIdOf(error);
  if (/\blists?\b/i.test(said) && (MISSING.test(said) || status === 404)) {
    return misconfigured(`list:${listId ?? '?'}`, listFix(listId, lists));
  }
  if (/sender/i.test(said)) {
    return misconfigured(
      'sender',
      'MAIL_FROM : l’expéditeur doit être validé dans Brevo (Expéditeurs, domaines et IP dédiées), ou son domaine authentifié',
    );
  }
  if (status === 400 && ABOUT_AN_ADDRESS.test(said) && REFUSING_AN_ADDRESS.test(said)) {
    return { verdict: 'refused' };
  }
  if (status === 404 || status === 405) {
    return misconfigured(
      'api-url',
      'BREVO_API_URL : Brevo ne connaît pas cette adresse (https://api.brevo.com/v3 attendu)',
    );
  }
  // A 4xx leadgate cannot read: not the visitor's doing as far as anyone can tell, so nothing is
  // given up; the agency reads Brevo's words and docs/brevo.md.
  return misconfigured(
    `request:${error.code ?? status}`,
    'la demande que leadgate envoie à Brevo (Brevo la refuse : voir ses mots et docs/brevo.md)',
  );
}

/** `POST /contacts/lists/8/contacts/add` → 8. */
function listIdOf(error: BrevoError): number | undefined {
  const match =
    /\/lists\/(\d+)\//.exec(error.message) ?? /\blist\D{0,12}(\d+)/i.exec(error.reason ?? '');
  return match ? Number(match[1]) : undefined;
}

function listFix(listId: number | undefined, lists: BrevoLists): string {
  const settings = (Object.keys(LIST_SETTINGS) as (keyof BrevoLists)[])
    .filter((key) => listId === undefined || lists[key] === listId)
    .map((key) => LIST_SETTINGS[key]);
  const which = listId === undefined ? 'une liste' : `la liste n° ${listId}`;
  return `${settings.join(' ou ') || 'BREVO_*_LIST_ID'} : ${which} n’existe pas dans Brevo (Contacts › Listes)`;
}
