/**
 * The optional Idempotency-Key request header (docs/reliability.md, "Retries without duplicates"): 1 to 255 visible ASCII
 * characters, a UUID fits. Read by the route and published in /openapi.json from this one pattern.
 */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const IDEMPOTENCY_KEY_PATTERN = '^[\\x21-\\x7E]{1,255}$';
