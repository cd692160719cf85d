/**
 * The logger the domain writes to; pino's (Fastify's) fits it as is. docs/operations.md: every line
 * about a lead carries its `leadId`, bound once with `child` rather than spliced into the message,
 * so an operator follows one lead with `jq 'select(.leadId == "…")'`.
 */
export interface LeadLog {
  child(bindings: Record<string, unknown>): LeadLog;
  debug(object: object, message: string): void;
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

const ignore = () => {};

/** For callers that log nothing (tests of the domain alone). */
export const SILENT_LOG: LeadLog = {
  child: () => SILENT_LOG,
  debug: ignore,
  info: ignore,
  warn: ignore,
  error: ignore,
};
