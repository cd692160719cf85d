/** What the MCP server says of itself: in its initialize answer and in the server card alike. */
export const MCP_SERVER_INFO = {
  name: 'leadgate',
  title: 'Demandes à l’agence : contact, lettre mensuelle, audit sectoriel',
  version: '1.0.0',
};

export const MCP_INSTRUCTIONS =
  'Trois outils pour agir au nom d’une personne, uniquement avec son accord explicite : submit_contact_request, subscribe_newsletter, submit_sector_audit. Les erreurs portent le même code, message, hint et field que l’API REST (/openapi.json). Three tools to act for a person, only with their explicit consent; errors carry the REST API’s code, message, hint and field. Read a sector questionnaire resource before submit_sector_audit.';
