/** The e-mail/CRM provider refused, failed or did not answer in time: the caller may retry (spec 7, 502). */
export class UpstreamError extends Error {
  override readonly name = 'UpstreamError';
}

/**
 * The destination did not answer at all (refused connection, timeout): unlike an answer about one
 * address, every lead meets it, so it opens an alert once it lasts (docs/delivery.md, « Alerts »).
 */
export class UnreachableError extends UpstreamError {}

/** Whether `error` or one of its causes says the destination did not answer. */
export function isUnreachable(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth += 1) {
    if (current instanceof UnreachableError) return true;
    current = current.cause;
  }
  return false;
}

/** The server lacks what it needs to hand a lead over (spec 7, 500): an operator must act. */
export class ConfigurationError extends Error {
  override readonly name = 'ConfigurationError';
}

/**
 * docs/reliability.md: an Idempotency-Key already stands for another request (`different_request`), or for the
 * same one still being handled elsewhere after the wait (`in_progress`): 409, nothing delivered.
 */
export class IdempotencyConflictError extends Error {
  override readonly name = 'IdempotencyConflictError';
  constructor(readonly reason: 'different_request' | 'in_progress') {
    super(`Idempotency-Key conflict: ${reason}`);
  }
}

/**
 * A destination refused this lead for good (SMTP 550 for the address, Brevo 400 invalid_parameter):
 * sending it again would be refused again. The step ends `refused`; the lead's other steps go on.
 */
export class RefusedError extends Error {
  override readonly name = 'RefusedError';
}

/**
 * The destination itself says it is gone for good (a webhook receiver answering 410, Standard
 * Webhooks): retrying for days would change nothing. The step is `dead` at once, so the agency's one
 * alert tells it now; `leads replay --destination` sends it again once the address is fixed.
 */
export class DestinationGoneError extends Error {
  override readonly name = 'DestinationGoneError';
}

/**
 * What an operator has to fix before a destination can work (docs/delivery.md, « Alerts »): a
 * Brevo attribute, list or sender that does not exist, a key refused, an SMTP login refused, a
 * webhook receiver's 4xx. Not the visitor's fault and not refused for good: the provider refused
 * (502 in DELIVERY=sync, spec 7), the step is retried with backoff, and the agency gets one alert per `cause` naming `fix` and the provider's own words.
 */
export class MisconfiguredError extends UpstreamError {
  constructor(
    message: string,
    readonly problem: {
      /** Stable name of the cause (`brevo:attribute:SERVICE`): one alert per cause, not per lead. */
      cause: string;
      /** What to fix, in French: the setting or the provider's object, and where. */
      fix: string;
      /** The provider's own status and words, as it answered (`400 invalid_parameter: …`). */
      said: string;
    },
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
