import type { FastifyRequest } from 'fastify';
import { apiErrors } from './error-catalog.ts';

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

/**
 * Issue 4: the optional Idempotency-Key request header, 1 to 255 visible ASCII characters (a UUID
 * fits). A malformed key is refused rather than ignored: the caller believes its retries are safe.
 */
export const IDEMPOTENCY_KEY_PATTERN = '^[\\x21-\\x7E]{1,255}$';
const VALID_KEY = new RegExp(IDEMPOTENCY_KEY_PATTERN);

export function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const value = request.headers[IDEMPOTENCY_KEY_HEADER];
  if (value === undefined) return undefined;
  if (typeof value === 'string' && VALID_KEY.test(value)) return value;
  throw apiErrors.invalidField(
    'Idempotency-Key',
    'l’en-tête doit contenir de 1 à 255 caractères ASCII visibles, une seule fois',
    'Utilisez par exemple un UUID, le même pour chaque nouvel essai de la même demande.',
  );
}
