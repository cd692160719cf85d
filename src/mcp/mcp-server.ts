import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  McpError,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { callLeadTool, LEAD_TOOLS, type LeadToolDependencies } from './lead-tools.ts';
import { callPrivacyTool, PRIVACY_TOOL } from './privacy-tool.ts';
import type { Privacy } from '../features/privacy/privacy-service.ts';
import type { SharedLimit } from '../kernel/http/limits/rate-limit.ts';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ReadableResource } from './resources.ts';
import { mcpInstructions, MCP_SERVER_INFO } from './server-info.ts';

export { directAnswers } from './direct-answers.ts';

/*
 * docs/reliability.md, "Hostile input": the SDK's Server builds an Ajv instance of its own unless
 * given one (for elicitation answers, which these tools never ask for); one for every server keeps
 * a refused tool call's cost near the REST endpoint's.
 */
let validator: AjvJsonSchemaValidator | undefined;

export interface McpDependencies extends LeadToolDependencies {
  resources: readonly ReadableResource[];
  /** docs/consent.md, "Requests about one's data": the tool request_privacy_action. */
  privacy?: Privacy;
  /** Its per-client counter, shared with POST /api/privacy (src/http/limits/rate-limit.ts). */
  privacyLimit?: SharedLimit;
}

/** Every tool the server offers: one per lead kind, and the privacy request when wired. */
export function toolsOf(privacy: unknown): Tool[] {
  return privacy ? [...LEAD_TOOLS, PRIVACY_TOOL] : [...LEAD_TOOLS];
}

/**
 * One MCP server per HTTP request (stateless Streamable HTTP): the low-level Server lets the tools
 * publish the REST endpoints' own JSON Schemas and validate with the API's Ajv, where McpServer
 * would want zod copies of them.
 */
export function createMcpServer(deps: McpDependencies, clientAddress: string): Server {
  const server = new Server(MCP_SERVER_INFO, {
    capabilities: { tools: {}, resources: {} },
    instructions: mcpInstructions(Boolean(deps.privacy)),
    jsonSchemaValidator: (validator ??= new AjvJsonSchemaValidator()),
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolsOf(deps.privacy) }));
  server.setRequestHandler(CallToolRequestSchema, (request) =>
    deps.privacy && request.params.name === PRIVACY_TOOL.name
      ? callPrivacyTool(deps.privacy, request.params.arguments, deps.logError, async () =>
          deps.privacyLimit ? deps.privacyLimit(clientAddress) : 0,
        )
      : callLeadTool(deps, {
          name: request.params.name,
          arguments: request.params.arguments,
          clientAddress,
        }),
  );
  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: deps.resources.map(({ read: _read, ...resource }) => resource),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) => {
    const resource = deps.resources.find((candidate) => candidate.uri === request.params.uri);
    if (!resource) {
      throw new McpError(ErrorCode.InvalidParams, `Ressource inconnue : ${request.params.uri}`);
    }
    return {
      contents: [{ uri: resource.uri, mimeType: resource.mimeType, text: resource.read() }],
    };
  });
  return server;
}

/** Stateless (no session id) and answering in JSON rather than a server-sent stream (docs/agents.md). */
export function createMcpTransport(): StreamableHTTPServerTransport {
  return new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
}
