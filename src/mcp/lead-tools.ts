import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ConsentEvidence } from '../kernel/lead/consent.ts';
import type { Intake } from '../features/intake/intake.ts';
import { domainErrorToApiError } from '../kernel/http/error-handler.ts';
import { compileSchemaOnFirstUse } from '../kernel/schemas/compile-schema.ts';
import {
  LEAD_KINDS,
  leadRequestOf,
  type LeadBody,
  type LeadKindDescriptor,
} from '../kernel/schemas/lead-kinds.ts';
import { apiErrors, type ApiError } from '../kernel/schemas/error-catalog.ts';
import { IDEMPOTENCY_KEY_PATTERN } from '../kernel/schemas/idempotency-key.ts';
import { validationToApiError } from '../kernel/schemas/validation-errors.ts';
import type { SuccessResponse } from '../kernel/schemas/responses.ts';
import { successBody } from '../features/intake/lead-routes.ts';

/** The MCP stand-in for the Idempotency-Key header: a retried tool call with the same key journals once. */
export const IDEMPOTENCY_ARGUMENT = 'idempotency_key';

const IDEMPOTENCY_PROPERTY = {
  type: 'string',
  pattern: IDEMPOTENCY_KEY_PATTERN,
  description:
    'Facultatif. Clé choisie par l’appelant (un UUID) : la même clé avec les mêmes arguments pendant 24 heures renvoie le premier résultat sans nouvel envoi. Optional: the same key with the same arguments within 24 hours returns the first result without sending again; reuse it when retrying a call.',
};

interface ObjectSchema {
  properties: Record<string, unknown>;
}

/**
 * A REST endpoint as an MCP tool: the input schema is the endpoint's own TypeBox schema (plus the
 * idempotency key), the description its French text followed by an English one.
 */
export function toolOf(endpoint: LeadKindDescriptor): Tool {
  const schema = endpoint.schema as unknown as ObjectSchema;
  return {
    name: endpoint.tool.name,
    title: endpoint.summary,
    description: `${endpoint.description}\n\nEnglish: ${endpoint.tool.english}`,
    inputSchema: {
      ...(endpoint.schema as object),
      type: 'object',
      properties: { ...schema.properties, [IDEMPOTENCY_ARGUMENT]: IDEMPOTENCY_PROPERTY },
    },
    annotations: {
      title: endpoint.summary,
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: true,
    },
  };
}

export const LEAD_TOOLS: readonly Tool[] = LEAD_KINDS.map(toolOf);

const validators = new Map(
  LEAD_KINDS.map((endpoint) => [
    endpoint.tool.name,
    compileSchemaOnFirstUse<LeadBody>(endpoint.schema),
  ]),
);
const VALID_KEY = new RegExp(IDEMPOTENCY_KEY_PATTERN);

/** A tool error carries the REST ErrorResponse (code, message, hint, field) as text and as structure. */
export function toolError(error: ApiError): CallToolResult {
  const body = error.toResponse();
  return {
    isError: true,
    content: [{ type: 'text', text: JSON.stringify(body) }],
    structuredContent: body,
  };
}

function toolSuccess(result: SuccessResponse): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result };
}

export interface ToolCall {
  name: string;
  arguments: Record<string, unknown> | undefined;
  /** The client's address as the REST routes see it (TRUST_PROXY), for the consent record. */
  clientAddress: string;
}

export interface LeadToolDependencies {
  intake: Intake;
  /** An unexpected failure: logged with detail, answered as server_error without it (spec 7). */
  logError: (error: unknown) => void;
  /** Told the lead's id once known, so the request's later log lines name it (docs/operations.md). */
  identified: (leadId: string) => void;
}

/**
 * The same intake path as POST /api/*: the same schema and validator, the same error answers,
 * the journal, idempotency and consent record (channel `mcp`).
 */
export async function callLeadTool(
  { intake, logError, identified }: LeadToolDependencies,
  call: ToolCall,
): Promise<CallToolResult> {
  const endpoint = LEAD_KINDS.find((candidate) => candidate.tool.name === call.name);
  const validate = validators.get(call.name);
  if (!endpoint || !validate) return toolError(apiErrors.notFound('tools/call', call.name));
  const { [IDEMPOTENCY_ARGUMENT]: key, ...body } = call.arguments ?? {};
  if (key !== undefined && (typeof key !== 'string' || !VALID_KEY.test(key))) {
    return toolError(
      apiErrors.invalidField(
        IDEMPOTENCY_ARGUMENT,
        'la clé doit contenir de 1 à 255 caractères ASCII visibles',
        'Utilisez par exemple un UUID, le même pour chaque nouvel essai du même appel.',
        'tool',
      ),
    );
  }
  if (!validate(body)) {
    return toolError(
      validationToApiError(validate.errors ?? [], {
        knownFields: Object.keys((endpoint.schema as unknown as ObjectSchema).properties),
        repeatedFields: new Map(),
        example: endpoint.example,
        body,
        questionnaire: endpoint.questionnaire,
        medium: 'tool',
      }),
    );
  }
  const { consent: declared, ...data } = body;
  const consent: ConsentEvidence = {
    channel: 'mcp',
    version: declared?.version,
    page: declared?.page,
    clientAddress: call.clientAddress,
  };
  try {
    const outcome = await intake.submit(leadRequestOf(endpoint, data), {
      callerKey: key as string | undefined,
      consent,
      identified,
    });
    return toolSuccess(successBody(endpoint, outcome));
  } catch (error) {
    const known = domainErrorToApiError(error);
    if (known && known.statusCode < 500) return toolError(known);
    if (!known || known.code === 'server_error') logError(error);
    return toolError(known ?? apiErrors.serverError());
  }
}
