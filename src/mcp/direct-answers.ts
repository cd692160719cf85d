import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { IncomingHttpHeaders } from 'node:http';
import { callLeadTool, LEAD_TOOLS, type LeadToolDependencies } from './lead-tools.ts';
import { PRIVACY_TOOL } from './privacy-tool.ts';
import type { ReadableResource } from './resources.ts';

/**
 * docs/reliability.md, "Hostile input": the messages an agent sends most, answered without building
 * an MCP server and transport for them (which cost a refused tool call three times the REST
 * endpoint's CPU). What `tools/list`, `resources/list` and `resources/read` answer never changes
 * while the server runs: each result is serialised once and sent with the request's own id. A
 * `tools/call` goes to the same callLeadTool as through the SDK. Any other message, or one these
 * cannot answer (an unknown resource, malformed params, a protocol version the SDK would refuse),
 * goes to the SDK, which answers it as MCP says.
 */
export type DirectAnswer = (
  message: unknown,
  headers: IncomingHttpHeaders,
  deps: () => LeadToolDependencies,
  clientAddress: string,
) => Promise<string> | string | undefined;

interface Request {
  jsonrpc: '2.0';
  id: string | number;
  method: string;
  params?: { uri?: unknown; cursor?: unknown; name?: unknown; arguments?: unknown };
}

function isRequest(message: unknown): message is Request {
  if (message === null || typeof message !== 'object' || Array.isArray(message)) return false;
  const { jsonrpc, id, method, params } = message as Record<string, unknown>;
  return (
    jsonrpc === '2.0' &&
    (typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id))) &&
    typeof method === 'string' &&
    (params === undefined || (params !== null && typeof params === 'object'))
  );
}

/** The same checks as the SDK's transport makes before any message: else it answers them. */
function acceptable(headers: IncomingHttpHeaders): boolean {
  const accept = headers.accept ?? '';
  const version = headers['mcp-protocol-version'];
  return (
    accept.includes('application/json') &&
    accept.includes('text/event-stream') &&
    (version === undefined || SUPPORTED_PROTOCOL_VERSIONS.includes(String(version)))
  );
}

const answer = (id: Request['id'], result: string) =>
  `{"result":${result},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`;

function isArguments(value: unknown): value is Record<string, unknown> | undefined {
  return (
    value === undefined || (value !== null && typeof value === 'object' && !Array.isArray(value))
  );
}

export function directAnswers(
  resources: readonly ReadableResource[],
  /** The privacy tool is listed here; its calls go through the SDK path (mcp-server.ts). */
  privacy = false,
): DirectAnswer {
  const tools = JSON.stringify({ tools: privacy ? [...LEAD_TOOLS, PRIVACY_TOOL] : LEAD_TOOLS });
  const listed = JSON.stringify({
    resources: resources.map(({ read: _read, ...resource }) => resource),
  });
  const read = new Map<string, string>();
  const readResult = (uri: unknown): string | undefined => {
    const resource = resources.find((candidate) => candidate.uri === uri);
    if (!resource) return undefined;
    let result = read.get(resource.uri);
    if (result === undefined) {
      result = JSON.stringify({
        contents: [{ uri: resource.uri, mimeType: resource.mimeType, text: resource.read() }],
      });
      read.set(resource.uri, result);
    }
    return result;
  };
  return (message, headers, deps, clientAddress) => {
    if (!isRequest(message) || !acceptable(headers)) return undefined;
    const { id, method, params } = message;
    if (method === 'tools/call') {
      if (typeof params?.name !== 'string' || !isArguments(params.arguments)) return undefined;
      if (params.name === PRIVACY_TOOL.name) return undefined;
      const call = { name: params.name, arguments: params.arguments, clientAddress };
      return callLeadTool(deps(), call).then((result) => answer(id, JSON.stringify(result)));
    }
    const result =
      method === 'tools/list' && params?.cursor === undefined
        ? tools
        : method === 'resources/list' && params?.cursor === undefined
          ? listed
          : method === 'resources/read'
            ? readResult(params?.uri)
            : undefined;
    return result === undefined ? undefined : answer(id, result);
  };
}
