/** The e-mail/CRM provider refused, failed or did not answer in time: the caller may retry (spec 7, 502). */
export class UpstreamError extends Error {
  override readonly name = 'UpstreamError';
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
