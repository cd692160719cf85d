import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Intake } from '../features/intake/intake.ts';
import type { Privacy } from '../features/privacy/privacy-service.ts';
import type { SharedLimit } from '../kernel/http/limits/rate-limit.ts';
import { registerBodyParsers } from '../kernel/http/body-parsers.ts';
import { registerRateLimit, type RateLimitSettings } from '../kernel/http/limits/rate-limit.ts';
import { bindLeadId } from '../kernel/observability/logging.ts';
import { soonAfterListening } from '../kernel/http/soon-after-listening.ts';
import { apiErrors } from '../kernel/schemas/error-catalog.ts';
import { LEAD_KINDS } from '../kernel/schemas/lead-kinds.ts';
import { PRIVACY_TOOL_NAME } from '../kernel/schemas/privacy-request.ts';
import type * as McpServerModule from './mcp-server.ts';
import type { McpDependencies } from './mcp-server.ts';
import type { DirectAnswer } from './direct-answers.ts';
import { leadResources } from './resources.ts';
import { MCP_PATH, SERVER_CARD_PATH, serverCard } from './server-card.ts';

export interface McpSettings {
  intake: Intake;
  /** docs/consent.md: the tool request_privacy_action, when the app wires the privacy room. */
  privacy?: Privacy;
  /** The privacy request's per-client counter, shared with POST /api/privacy (rate-limit.ts). */
  privacyLimit?: SharedLimit;
  siteUrl: string;
  /** The built site, whose service pages become resources; without it only the questionnaires are. */
  siteDir?: string;
  /** The same limiter as the API's POST routes (docs/reliability.md), counted per address on /mcp. */
  rateLimit: RateLimitSettings;
}

/**
 * docs/agents.md: MCP over Streamable HTTP at /mcp, stateless (a fresh server and transport per
 * POST, no session), with JSON answers. GET (a server-sent stream) and DELETE (ending a session)
 * have nothing to serve without sessions: 405, as the MCP transport specification allows, whose
 * hint says what the address is and how to use it. Its own
 * scope beside the API plugin: JSON bodies and the rate limit hold here as they do under /api.
 */
/** What MCP publishes of the built site: read again when a new build is served. */
export interface McpSite {
  reload(): void;
}

export async function registerMcp(app: FastifyInstance, settings: McpSettings): Promise<McpSite> {
  const published = publishedSite(settings);
  await app.register(async (scope) => {
    registerBodyParsers(scope);
    await registerRateLimit(scope, settings.rateLimit);
    mcpRoutes(scope, settings, published);
  });
  return published;
}

/**
 * The resources (the site's pages of facts, read from dist/), the answers built from them and the
 * server card: docs/site.md, "Serving", a rebuild takes effect without a restart, for assistants too.
 */
function publishedSite(settings: McpSettings) {
  const read = () => {
    const resources = leadResources(settings.siteUrl, settings.siteDir);
    const card = JSON.stringify(
      serverCard(settings.siteUrl, resources, Boolean(settings.privacy)),
      null,
      2,
    );
    return { resources, card, direct: undefined as DirectAnswer | undefined };
  };
  const published = {
    ...read(),
    reload() {
      Object.assign(published, read());
    },
  };
  return published;
}

/**
 * docs/performance.md (starts): the MCP SDK and zod (400 KB of the bundle) are a chunk of their own,
 * loaded off the start's path: a second after listening, or at an earlier POST. Not later: a
 * `leadgate build` deletes a previous bundle's chunks ten minutes after replacing it
 * (src/cli/bundle-cli.ts), and a server started from it must not need them then.
 */
let loaded: Promise<typeof McpServerModule> | undefined;
const mcpServer = () => (loaded ??= import('./mcp-server.ts'));

/**
 * docs/agents.md: one JSON-RPC message per POST. A batch (an array, dropped from MCP in its
 * 2025-06-18 revision) would make 100 tool calls one request for the rate limit; it is refused
 * before any of its calls runs, with JSON-RPC's Invalid Request.
 */
const BATCH_REFUSED = JSON.stringify({
  jsonrpc: '2.0',
  id: null,
  error: {
    code: -32600,
    message:
      'Invalid Request: un seul message JSON-RPC par requête (batch refusé). One JSON-RPC message per POST; batches are not accepted.',
  },
});

function mcpRoutes(
  app: FastifyInstance,
  settings: McpSettings,
  published: ReturnType<typeof publishedSite>,
): void {
  soonAfterListening(app, mcpServer);
  const deps = (request: FastifyRequest, reply: FastifyReply): McpDependencies => ({
    intake: settings.intake,
    ...(settings.privacy && { privacy: settings.privacy }),
    ...(settings.privacyLimit && { privacyLimit: settings.privacyLimit }),
    resources: published.resources,
    logError: (error) => request.log.error({ err: error }, 'MCP tool call failed'),
    identified: (leadId) => bindLeadId(request, reply, leadId),
  });

  app.route({
    method: 'POST',
    url: MCP_PATH,
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const { createMcpServer, createMcpTransport, directAnswers } = await mcpServer();
      if (Array.isArray(request.body)) {
        return reply.code(400).type('application/json').send(BATCH_REFUSED);
      }
      const answered = (published.direct ??= directAnswers(
        published.resources,
        Boolean(settings.privacy),
      ))(request.body, request.headers, () => deps(request, reply), request.ip);
      if (answered !== undefined) return reply.type('application/json').send(await answered);
      const server = createMcpServer(deps(request, reply), request.ip);
      const transport = createMcpTransport();
      // Headers set by the hooks (CORS, request id, nosniff) go out with the transport's answer.
      for (const [name, value] of Object.entries(reply.getHeaders())) {
        if (value !== undefined) reply.raw.setHeader(name, value);
      }
      reply.hijack();
      reply.raw.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    },
  });
  app.route({
    method: ['GET', 'DELETE'],
    url: MCP_PATH,
    exposeHeadRoute: false,
    handler: async (request) => {
      const tools = LEAD_KINDS.map((kind) => kind.tool.name);
      if (settings.privacy) tools.push(PRIVACY_TOOL_NAME);
      throw apiErrors.mcpMethodNotAllowed(request.method, tools);
    },
  });

  app.get(SERVER_CARD_PATH, async (_request, reply) =>
    reply
      .type('application/json; charset=utf-8')
      .header('cache-control', 'public, max-age=300')
      .send(published.card),
  );
}
