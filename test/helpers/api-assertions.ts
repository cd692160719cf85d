import { Ajv } from 'ajv';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import {
  ErrorResponseSchema,
  type ErrorCode,
  type ErrorResponse,
  type SuccessResponse,
} from '../../src/kernel/schemas/responses.ts';
import { validContact } from './app.ts';

const checkErrorShape = new Ajv({ strict: false }).compile(ErrorResponseSchema);

/**
 * Spec 7: every error is JSON with the ErrorResponse shape (2.5) and content type
 * `application/json; charset=utf-8`, never a stack trace; spec 1: CORS is open on every answer.
 */
export function expectApiError(
  response: LightMyRequestResponse,
  status: number,
  code: ErrorCode,
): ErrorResponse['error'] {
  expect({ status: response.statusCode, body: response.body }).toMatchObject({ status });
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(response.headers['access-control-allow-origin']).toBe('*');
  const body = response.json() as ErrorResponse;
  expect(checkErrorShape(body), JSON.stringify(checkErrorShape.errors)).toBe(true);
  expect(body.error.code).toBe(code);
  expect(response.body).not.toMatch(/stack|\bat \S+ \(|node_modules|\.ts:\d+/);
  expect(body.error.message.length).toBeGreaterThan(10);
  expect(body.error.hint.length).toBeGreaterThan(10);
  return body.error;
}

/** POSTs a JSON body (any value, serialized as is) with `Content-Type: application/json`. */
export function postJson(
  app: FastifyInstance,
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
) {
  return app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json', ...headers },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** POSTs an HTML form body, exactly as a browser encodes it (`application/x-www-form-urlencoded`). */
export function postForm(
  app: FastifyInstance,
  url: string,
  fields: [string, string][],
  headers: Record<string, string> = {},
) {
  return app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: new URLSearchParams(fields).toString(),
  });
}

/** A contact from this address, accepted (200): the lead's id, which the answer gives as `reference`. */
export async function acceptedContact(app: FastifyInstance, email: string): Promise<string> {
  const answer = await postJson(app, '/api/contact', { ...validContact, EMAIL: email });
  expect(answer.statusCode, answer.body).toBe(200);
  const { reference } = answer.json<SuccessResponse>();
  expect(reference).toEqual(expect.any(String));
  return reference!;
}
