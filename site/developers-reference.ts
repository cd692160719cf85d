import { ERROR_STATUS } from '../src/http/error-catalog.ts';
import { LEAD_ENDPOINTS, type LeadEndpoint } from '../src/schemas/endpoints.ts';
import { ERROR_CODES, type ErrorCode } from '../src/schemas/responses.ts';

interface PropertySchema {
  type?: string;
  format?: string;
  enum?: string[];
  minLength?: number;
  maxLength?: number;
  description?: string;
  examples?: unknown[];
}
interface ObjectSchema {
  properties: Record<string, PropertySchema>;
  required?: string[];
  then?: { required?: string[] };
}

/** Why each code is answered; the Record type makes a new code fail typecheck until it is explained here. */
const ERROR_CAUSES: Record<ErrorCode, string> = {
  invalid_json: 'Le corps ne se lit pas comme un objet JSON.',
  missing_field: 'Un champ obligatoire est absent ou vide ; le message le nomme.',
  invalid_field:
    'Une valeur est invalide : e-mail mal formé, texte trop long, secteur inconnu, champ inconnu.',
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
  if (property.type === 'object') return 'objet `{ "question": "réponse" }` (valeurs texte)';
  if (property.format === 'email') return 'texte, adresse e-mail';
  return 'texte';
}

function requirement(name: string, schema: ObjectSchema): string {
  if (schema.required?.includes(name)) return 'oui';
  if (schema.then?.required?.includes(name)) return 'oui, sauf si `TOOL_SOURCE` est présent';
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

function examples(siteUrl: string, endpoint: LeadEndpoint, body: Record<string, unknown>): string {
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

function endpointSection(siteUrl: string, endpoint: LeadEndpoint): string {
  const schema = endpoint.schema as unknown as ObjectSchema;
  const parts = [
    `### POST ${endpoint.path}`,
    `${endpoint.summary}. ${endpoint.description}`,
    `Corps : \`${endpoint.schemaName}\` (opération \`${endpoint.operationId}\`). Tout champ non décrit est refusé.`,
    fieldTable(schema),
    examples(siteUrl, endpoint, exampleBody(schema)),
  ];
  if (endpoint.kind === 'contact') {
    const short = exampleBody({ ...schema, then: {} }, ['TOOL_SOURCE', 'TOOL_DATA']);
    parts.push(
      'Demande courte (diagnostic, outil) : avec `TOOL_SOURCE`, seuls `PRENOM` et `EMAIL` sont obligatoires.',
    );
    parts.push(examples(siteUrl, endpoint, short));
  }
  return parts.join('\n\n');
}

function errorTable(): string {
  const rows = ERROR_CODES.map(
    (code) => `| ${ERROR_STATUS[code]} | \`${code}\` | ${cell(ERROR_CAUSES[code])} |`,
  );
  return ['| Statut HTTP | `error.code` | Cause |', '| --- | --- | --- |', ...rows].join('\n');
}

/**
 * The reference part of /developers, generated from src/schemas and the error table, the same
 * sources as /openapi.json, so the human page cannot drift from the contract (issue 3).
 */
export function developersReference(siteUrl: string, { withHeading = true } = {}): string {
  return `${withHeading ? '## Référence de l’API\n\n' : ''}Adresse de base : \`${siteUrl}\`. Trois points d’accès \`POST\`, sans clé ni compte. Corps en JSON (\`Content-Type: application/json\`) ou en formulaire HTML (\`application/x-www-form-urlencoded\`, un champ répété est joint par une virgule). Réponses en JSON, erreurs comprises. CORS est ouvert. Description complète et machine : [\`/openapi.json\`](${siteUrl}/openapi.json) (OpenAPI 3.1).

**Règle de consentement :** n’envoyez une demande qu’avec l’accord explicite de la personne concernée.

${LEAD_ENDPOINTS.map((endpoint) => endpointSection(siteUrl, endpoint)).join('\n\n')}

### Réponses

- **200** : \`{"success": true}\` ; pour la lettre et l’audit, \`existing\` vaut \`true\` quand l’adresse était déjà connue. Une adresse déjà inscrite n’est pas une erreur.
- **303** : un formulaire HTML envoyé sans l’en-tête \`Accept: application/json\` est redirigé vers \`/contact/merci\`.
- **Erreurs** : \`{"success": false, "error": {"code": "…", "message": "…", "hint": "…"}}\`. Le \`code\` est stable et fait pour être testé ; \`message\` et \`hint\` sont des textes en français qui peuvent changer.

### Codes d’erreur

${errorTable()}`;
}
