import {
  ERROR_FIELDS,
  SUCCESS_FIELDS,
  type AnswerField,
} from '../../kernel/schemas/answer-fields.ts';
import { apiEndpoints } from '../../kernel/schemas/api-endpoints.ts';
import { CONSENT_WORDINGS } from '../../kernel/schemas/consent.ts';
import { frenchList } from '../../kernel/schemas/french-text.ts';
import {
  endpointCount,
  inFrenchWords,
  LEAD_KINDS,
  type ApiAction,
  type LeadKindDescriptor,
} from '../../kernel/schemas/lead-kinds.ts';
import { PRIVACY_ACTION, PRIVACY_PAGE_PATH } from '../../kernel/schemas/privacy-request.ts';
import { ERROR_CODES, ERROR_STATUS, type ErrorCode } from '../../kernel/schemas/responses.ts';

interface PropertySchema {
  type?: string;
  format?: string;
  enum?: string[];
  minLength?: number;
  maxLength?: number;
  description?: string;
  examples?: unknown[];
  properties?: Record<string, unknown>;
}
interface ObjectSchema {
  properties: Record<string, PropertySchema>;
  required?: string[];
  /** A short request: when this field is absent (`not required`), `then` adds required fields. */
  if?: { not?: { required?: string[] } };
  then?: { required?: string[] };
}

/** The field whose presence makes a short request (TOOL_SOURCE of spec 2.1), if the schema has one. */
function shortRequestField(schema: ObjectSchema): string | undefined {
  return schema.if?.not?.required?.[0];
}

/** Why each code is answered; the Record type makes a new code fail typecheck until it is explained here. */
const ERROR_CAUSES: Record<ErrorCode, string> = {
  invalid_json: 'Le corps ne se lit pas comme un objet JSON.',
  missing_field:
    'Des champs obligatoires sont absents ou vides ; le message les nomme tous, `error.field` donne le premier.',
  invalid_field:
    'Une valeur est invalide : e-mail mal formé, texte trop long, secteur inconnu, champ inconnu (avec le nom voulu quand seule la casse diffère), champ de formulaire répété ; `error.field` le nomme.',
  not_found: 'Aucun point d’accès à cette adresse sous `/api/`.',
  method_not_allowed:
    'Méthode autre que POST (ou OPTIONS pour CORS) ; l’en-tête `Allow` liste les méthodes acceptées.',
  idempotency_conflict:
    'La clé `Idempotency-Key` a déjà servi pour une autre demande (corps différent), ou la première demande portant cette clé est encore en cours.',
  payload_too_large: 'Le corps de la requête dépasse la taille maximale acceptée.',
  unsupported_media_type:
    'Corps envoyé ni en JSON ni en formulaire HTML (`Content-Type` absent ou autre).',
  rate_limited:
    'Trop de demandes depuis la même adresse en peu de temps ; l’en-tête `Retry-After` donne l’attente en secondes.',
  server_error:
    'Erreur interne ou configuration incomplète ; réessayez plus tard ou écrivez à l’agence.',
  upstream_error:
    'Le prestataire d’envoi n’a pas répondu correctement ; la demande n’a pas été transmise. Réessayez dans quelques instants.',
};

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

function typeOf(property: PropertySchema): string {
  if (property.enum)
    return `texte, l’une des valeurs ${property.enum.map((v) => `\`${v}\``).join(', ')}`;
  if (property.type === 'object' && property.properties) {
    return `objet \`{ ${Object.keys(property.properties)
      .map((name) => `"${name}"`)
      .join(', ')} }\`, voir « Consentement »`;
  }
  if (property.type === 'object') return 'objet `{ "question": "réponse" }` (valeurs texte)';
  if (property.format === 'email') return 'texte, adresse e-mail';
  return 'texte';
}

function requirement(name: string, schema: ObjectSchema): string {
  if (schema.required?.includes(name)) return 'oui';
  if (schema.then?.required?.includes(name))
    return `oui, sauf si \`${shortRequestField(schema)}\` est présent`;
  return 'non';
}

function fieldTable(schema: ObjectSchema): string {
  const rows = Object.entries(schema.properties).map(
    ([name, property]) =>
      `| \`${name}\` | ${cell(typeOf(property))} | ${cell(requirement(name, schema))} | ${property.maxLength ?? '—'} | ${cell(property.description ?? '')} |`,
  );
  return [
    '| Champ | Type | Obligatoire | Longueur max. | Description |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}

/** An example body from the schema's own examples: every required field, plus the enum and object ones. */
function exampleBody(schema: ObjectSchema, extra: string[] = []): Record<string, unknown> {
  const required = [...(schema.required ?? []), ...(schema.then?.required ?? [])];
  const entries = Object.entries(schema.properties).filter(
    ([name, property]) =>
      required.includes(name) ||
      extra.includes(name) ||
      property.enum ||
      property.type === 'object',
  );
  return Object.fromEntries(
    entries.map(([name, property]) => [name, property.examples?.[0] ?? property.enum?.[0] ?? '']),
  );
}

function examples(siteUrl: string, endpoint: ApiAction, body: Record<string, unknown>): string {
  const url = `${siteUrl}${endpoint.path}`;
  const json = JSON.stringify(body, null, 2);
  return `\`\`\`sh
curl -s ${url} \\
  -H 'Content-Type: application/json' \\
  -d '${json.replaceAll("'", "'\\''")}'
\`\`\`

\`\`\`js
const response = await fetch('${url}', {
  method: 'POST',
  headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
  body: JSON.stringify(${json.replaceAll('\n', '\n  ')}),
});
const result = await response.json(); // { success: true } ou { success: false, error: { code, message, hint } }
\`\`\``;
}

function endpointSection(siteUrl: string, endpoint: ApiAction): string {
  const schema = endpoint.schema as unknown as ObjectSchema;
  const parts = [
    `### POST ${endpoint.path}`,
    `${endpoint.summary}. ${endpoint.description}`,
    `Corps : \`${endpoint.schemaName}\` (opération \`${endpoint.operationId}\`). Tout champ non décrit est refusé.`,
    fieldTable(schema),
    examples(siteUrl, endpoint, exampleBody(schema)),
  ];
  const shortField = shortRequestField(schema);
  if (shortField) {
    const required = (schema.required ?? []).map((name) => `\`${name}\``);
    parts.push(
      `Demande courte (diagnostic, outil) : avec \`${shortField}\`, seuls ${required.join(' et ')} sont obligatoires.`,
    );
    parts.push(examples(siteUrl, endpoint, exampleBody({ ...schema, then: {} }, [shortField])));
  }
  return parts.join('\n\n');
}

/**
 * The request about one's data (docs/consent.md): the same reference as a lead endpoint, and what
 * makes it different: the person confirms by e-mail, the answer says nothing of the address.
 */
function privacySection(siteUrl: string): string {
  return `${endpointSection(siteUrl, PRIVACY_ACTION)}

Réponse : \`{"success": true, "confirmation": "sent"}\`, ou \`"already_sent"\` quand un lien est déjà parti vers cette adresse pour le même type de demande dans les 24 heures (un par adresse et par type au plus : une demande d’effacement reçoit son propre lien même si une désinscription attend). Pas d’en-tête \`Idempotency-Key\` ici : renvoyer la demande ne fait qu’envoyer le même lien, dans la même limite. La page [Vos données](${siteUrl}${PRIVACY_PAGE_PATH}) porte le même formulaire pour les personnes.`;
}

/** What an agent must obtain from the person, wording by wording (the texts the journal records). */
function consentSection(): string {
  const rows = CONSENT_WORDINGS.map(
    (wording) =>
      `| \`${wording.version}\` | ${wording.kinds.map((kind) => `\`${kind}\``).join(', ')} | ${cell(wording.text)} |`,
  );
  return `### Consentement

Avant d’envoyer une demande pour quelqu’un, faites-lui lire le texte de consentement de cette demande et obtenez son accord explicite ; puis indiquez la version acceptée dans l’objet facultatif \`consent\` (\`{"version": "…", "channel": "agent"}\` pour un assistant IA). Chaque demande est enregistrée avec la preuve de ce consentement : l’empreinte SHA-256 du texte, la date, le canal (formulaire, API, agent), la page et le réseau d’origine tronqué (IPv4 /24, IPv6 /48). Sans objet \`consent\`, la version actuelle est enregistrée avec le canal \`api\` : l’appelant affirme avoir obtenu l’accord sur ce texte.

| Version | Demandes | Texte à faire accepter |
| --- | --- | --- |
${rows.join('\n')}`;
}

function errorTable(): string {
  const rows = ERROR_CODES.map(
    (code) => `| ${ERROR_STATUS[code]} | \`${code}\` | ${cell(ERROR_CAUSES[code])} |`,
  );
  return ['| Statut HTTP | `error.code` | Cause |', '| --- | --- | --- |', ...rows].join('\n');
}

/**
 * The reference part of /developers, generated from src/kernel/schemas and the error table, the
 * same sources as /openapi.json, so the human page cannot drift from the contract (docs/site.md).
 */
/** The same actions for MCP clients (docs/agents.md). */
function mcpSection(siteUrl: string, kinds: readonly LeadKindDescriptor[]): string {
  const tools = apiEndpoints(kinds)
    .map((endpoint) => `\`${endpoint.tool.name}\` (comme \`POST ${endpoint.path}\`)`)
    .join(', ');
  return `### Serveur MCP

Les ${inFrenchWords(apiEndpoints(kinds).length)} actions existent en outils MCP sur \`${siteUrl}/mcp\` (transport Streamable HTTP, sans session, sans authentification) : ${tools}. Mêmes champs, mêmes règles et mêmes erreurs (\`code\`, \`message\`, \`hint\`, \`field\`, dans le résultat d’outil en erreur) ; l’argument \`idempotency_key\` joue le rôle de l’en-tête \`Idempotency-Key\`. Les questionnaires des secteurs sont des ressources. Fiche du serveur (format brouillon) : [\`/.well-known/mcp/server-card.json\`](${siteUrl}/.well-known/mcp/server-card.json).`;
}

/** The optional fields of an answer, each with its schema's description (docs/api-decisions.md). */
function fieldItems(fields: readonly AnswerField[]): string {
  return fields.map(({ name, description }) => `  - \`${name}\` : ${description}`).join('\n');
}

/** The endpoints whose answer carries `existing` (spec 2.4), as prose. */
function answersExisting(kinds: readonly LeadKindDescriptor[]): string {
  const paths = kinds.filter((kind) => kind.answersExisting).map((kind) => `\`POST ${kind.path}\``);
  return frenchList(paths);
}

export function developersReference(
  siteUrl: string,
  {
    withHeading = true,
    kinds = LEAD_KINDS,
  }: { withHeading?: boolean; kinds?: readonly LeadKindDescriptor[] } = {},
): string {
  return `${withHeading ? '## Référence de l’API\n\n' : ''}Adresse de base : \`${siteUrl}\`. ${endpointCount(kinds, { capitalized: true })} \`POST\` pour les demandes, et \`POST ${PRIVACY_ACTION.path}\` pour les demandes sur ses données, sans clé ni compte. Corps en JSON (\`Content-Type: application/json\`) ou en formulaire HTML (\`application/x-www-form-urlencoded\`, un champ répété est joint par une virgule). Réponses en JSON, erreurs comprises. CORS est ouvert. Description complète et machine : [\`/openapi.json\`](${siteUrl}/openapi.json) (OpenAPI 3.1).

**Règle de consentement :** n’envoyez une demande qu’avec l’accord explicite de la personne concernée.

${consentSection()}

${kinds.map((endpoint) => endpointSection(siteUrl, endpoint)).join('\n\n')}

${privacySection(siteUrl)}

${mcpSection(siteUrl, kinds)}

### Réponses

- **200** : \`{"success": true}\` ; pour ${answersExisting(kinds)}, \`existing\` vaut \`true\` quand l’adresse était déjà connue. Une adresse déjà inscrite n’est pas une erreur. Selon la demande, la réponse porte aussi :
${fieldItems(SUCCESS_FIELDS)}
- **303** : un formulaire HTML envoyé sans l’en-tête \`Accept: application/json\` est redirigé vers la page de remerciement de son point d’accès (${[...kinds, PRIVACY_ACTION].map((endpoint) => `\`${endpoint.thankYouPath}\``).join(', ')}).
- **Erreurs** : \`{"success": false, "error": {"code": "…", "message": "…", "hint": "…", "field": "…"}}\`. Le \`code\` est stable et fait pour être testé ; \`field\` nomme le champ à corriger tel qu’il a été envoyé (absent quand l’erreur ne tient pas à un champ) ; \`message\` et \`hint\` sont des textes en français qui peuvent changer, et le \`hint\` s’applique tel quel. Une erreur 400 porte aussi :
${fieldItems(ERROR_FIELDS)}

### Codes d’erreur

${errorTable()}`;
}
