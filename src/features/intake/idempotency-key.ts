import type { FastifyRequest } from 'fastify';
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_PATTERN,
} from '../../kernel/schemas/idempotency-key.ts';
import { apiErrors } from '../../kernel/schemas/error-catalog.ts';

const VALID_KEY = new RegExp(IDEMPOTENCY_KEY_PATTERN);

/** A malformed key is refused rather than ignored: the caller believes its retries are safe. */
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
