import { toolOf } from './lead-tools.ts';
import { PRIVACY_TOOL } from './privacy-tool.ts';
import type { LeadKindDescriptor } from '../kernel/schemas/lead-kinds.ts';
import { LEAD_KINDS } from '../kernel/schemas/lead-kinds.ts';
import { mcpInstructions, MCP_SERVER_INFO } from './server-info.ts';
import type { ReadableResource } from './resources.ts';

export const MCP_PATH = '/mcp';
export const SERVER_CARD_PATH = '/.well-known/mcp/server-card.json';

/**
 * The MCP server card, so a client can discover /mcp before connecting. Its format is a DRAFT
 * (MCP SEP-1649, "MCP Server Cards", not yet in the specification): fields may change with it.
 */
export function serverCard(
  siteUrl: string,
  resources: readonly ReadableResource[],
  privacy = false,
  kinds: readonly LeadKindDescriptor[] = LEAD_KINDS,
) {
  return {
    $comment:
      'Brouillon : format de la proposition MCP SEP-1649 (MCP Server Cards), pas encore normalisé. Draft format (SEP-1649), subject to change.',
    version: '1.0',
    protocolVersion: '2025-06-18',
    serverInfo: MCP_SERVER_INFO,
    description: mcpInstructions(privacy, kinds),
    documentationUrl: `${siteUrl}/developers`,
    transport: { type: 'streamable-http', endpoint: `${siteUrl}${MCP_PATH}` },
    capabilities: { tools: { listChanged: false }, resources: { listChanged: false } },
    authentication: { required: false, schemes: [] },
    tools: [...kinds.map(toolOf), ...(privacy ? [PRIVACY_TOOL] : [])].map(
      ({ name, title, description }) => ({ name, title, description }),
    ),
    resources: resources.map(({ uri, name, title, mimeType }) => ({ uri, name, title, mimeType })),
  };
}
