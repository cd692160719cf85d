import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { domainErrorToApiError } from '../kernel/http/error-handler.ts';
import type { Privacy } from '../features/privacy/privacy-service.ts';
import { compileSchemaOnFirstUse } from '../kernel/schemas/compile-schema.ts';
import { apiErrors } from '../kernel/schemas/error-catalog.ts';
import {
  PRIVACY_DESCRIPTION,
  PRIVACY_ENGLISH,
  PRIVACY_SUMMARY,
  PRIVACY_TOOL_NAME,
  PrivacyRequestSchema,
  type PrivacyRequestBody,
} from '../kernel/schemas/privacy-request.ts';
import { validationToApiError } from '../kernel/schemas/validation-errors.ts';
import { toolError } from './lead-tools.ts';

/** POST /api/privacy as an MCP tool: the same schema, the same answer, channel `mcp`. */
export const PRIVACY_TOOL: Tool = {
  name: PRIVACY_TOOL_NAME,
  title: PRIVACY_SUMMARY,
  description: `${PRIVACY_DESCRIPTION}\n\nEnglish: ${PRIVACY_ENGLISH}`,
  inputSchema: PrivacyRequestSchema as unknown as Tool['inputSchema'],
  annotations: {
    title: PRIVACY_SUMMARY,
    readOnlyHint: false,
    // Nothing is done until the person confirms by the e-mailed link.
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: true,
  },
};

const validate = compileSchemaOnFirstUse<PrivacyRequestBody>(PrivacyRequestSchema);

export async function callPrivacyTool(
  privacy: Privacy,
  args: Record<string, unknown> | undefined,
  logError: (error: unknown) => void,
  /** Seconds to wait before this client's next privacy request, by any way in (0: now). */
  wait: () => Promise<number> = async () => 0,
): Promise<CallToolResult> {
  const body = args ?? {};
  if (!validate(body)) {
    return toolError(
      validationToApiError(validate.errors ?? [], {
        knownFields: Object.keys(PrivacyRequestSchema.properties),
        repeatedFields: new Map(),
        example: undefined,
        body,
        medium: 'tool',
      }),
    );
  }
  try {
    const seconds = await wait();
    if (seconds > 0) return toolError(apiErrors.rateLimited(seconds));
    const answer = await privacy.request(body, 'mcp');
    return { content: [{ type: 'text', text: JSON.stringify(answer) }], structuredContent: answer };
  } catch (error) {
    const known = domainErrorToApiError(error);
    if (!known || known.code === 'server_error') logError(error);
    return toolError(known ?? apiErrors.serverError());
  }
}
