import { frenchList, inEnglishWords, inFrenchWords } from '../kernel/schemas/french-text.ts';
import { LEAD_KINDS, type LeadKindDescriptor } from '../kernel/schemas/lead-kinds.ts';
import { PRIVACY_TOOL_NAME } from '../kernel/schemas/privacy-request.ts';

/** What the MCP server says of itself: in its initialize answer and in the server card alike. */
export const MCP_SERVER_INFO = {
  name: 'leadgate',
  title: 'Demandes à l’agence : contact, lettre mensuelle, audit sectoriel',
  version: '1.0.0',
};

/**
 * The server's instructions (initialize, and the server card's description): the tools it offers,
 * counted and named from the lead kinds' descriptors and the privacy tool, so a new kind cannot be
 * left out of what an agent reads first (test/architecture/fourth-lead-kind.test.ts).
 */
export function mcpInstructions(
  privacy: boolean,
  kinds: readonly LeadKindDescriptor[] = LEAD_KINDS,
): string {
  const names = [...kinds.map((kind) => kind.tool.name), ...(privacy ? [PRIVACY_TOOL_NAME] : [])];
  const questionnaires = kinds.filter((kind) => kind.questionnaire).map((kind) => kind.tool.name);
  const count = inFrenchWords(names.length, { capitalized: true });
  const english = inEnglishWords(names.length);
  return [
    `${count} outils pour agir au nom d’une personne, uniquement avec son accord explicite : ${frenchList(names)}.`,
    ...(privacy
      ? [
          `${PRIVACY_TOOL_NAME} transmet sa demande de désinscription, de copie ou d’effacement de ses données : rien n’est fait avant qu’elle confirme par le lien reçu à son adresse.`,
        ]
      : []),
    'Les erreurs portent le même code, message, hint et field que l’API REST (/openapi.json).',
    `${english} tools to act for a person, only with their explicit consent: ${names.join(', ')}; errors carry the REST API’s code, message, hint and field.`,
    ...(privacy
      ? [
          `${PRIVACY_TOOL_NAME} asks for an address to be unsubscribed, sent a copy of its data or erased; nothing happens before the person confirms through the link sent to that address.`,
        ]
      : []),
    ...questionnaires.map((name) => `Read a sector questionnaire resource before ${name}.`),
  ].join(' ');
}
