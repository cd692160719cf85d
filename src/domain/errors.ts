/** The e-mail/CRM provider refused, failed or did not answer in time: the caller may retry (spec 7, 502). */
export class UpstreamError extends Error {
  override readonly name = 'UpstreamError';
}

/** The server lacks what it needs to hand a lead over (spec 7, 500): an operator must act. */
export class ConfigurationError extends Error {
  override readonly name = 'ConfigurationError';
}
