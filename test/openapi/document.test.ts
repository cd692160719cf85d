import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_STATUS } from '../../src/kernel/schemas/responses.ts';
import { ERROR_CODES } from '../../src/kernel/schemas/responses.ts';
import { PRIVACY_EXAMPLE, PrivacyRequestSchema } from '../../src/kernel/schemas/privacy-request.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';

const SITE_URL = 'https://www.agence-web.fr';
const OPERATIONS = {
  '/api/contact': { operationId: 'submitContactRequest', schema: 'ContactRequest' },
  '/api/subscribe': { operationId: 'subscribeNewsletter', schema: 'SubscribeRequest' },
  '/api/audit': { operationId: 'submitSectorAudit', schema: 'AuditRequest' },
  // docs/consent.md, "Requests about one's data": from the same schema as the route and the tool.
  '/api/privacy': { operationId: 'requestPrivacyAction', schema: 'PrivacyRequest' },
};
/** Each operation's 200 answer. */
const ANSWERS: Record<string, string> = { '/api/privacy': 'PrivacyResponse' };
const SPEC_CODES = [
  'invalid_json',
  'missing_field',
  'invalid_field',
  'not_found',
  'method_not_allowed',
  'unsupported_media_type',
  'server_error',
  'upstream_error',
];

interface Schema {
  type?: string;
  properties?: Record<string, Schema & { examples?: unknown[] }>;
  additionalProperties?: boolean;
  required?: string[];
  description?: string;
  enum?: string[];
  $ref?: string;
}
interface Operation {
  operationId: string;
  requestBody: { content: Record<string, { schema: Schema; encoding?: object }> };
  responses: Record<
    string,
    { content?: { 'application/json': { schema: Schema } }; headers?: Record<string, unknown> }
  >;
}
interface Document {
  openapi: string;
  info: { version: string };
  servers: { url: string }[];
  paths: Record<string, { post: Operation } & Record<string, unknown>>;
  components: { schemas: Record<string, Schema> };
}

let t: TestApp;
let raw: string;
let doc: Document;
beforeAll(async () => {
  t = await buildTestApp({ env: { SITE_URL } });
  const response = await t.app.inject({ method: 'GET', url: '/openapi.json' });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  raw = response.body;
  doc = JSON.parse(raw) as Document;
});
afterAll(() => t.close());

describe('spec 9: /openapi.json', () => {
  it('is OpenAPI 3.1, interface version 1.0.0, served for SITE_URL', () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(doc.info.version).toBe('1.0.0');
    expect(doc.servers[0]?.url).toBe(SITE_URL);
  });

  it('declares exactly the four POST operations with their operationIds (spec 4)', () => {
    expect(Object.keys(doc.paths).sort()).toEqual(Object.keys(OPERATIONS).sort());
    for (const [path, { operationId, schema }] of Object.entries(OPERATIONS)) {
      expect(Object.keys(doc.paths[path]!)).toEqual(['post']);
      const operation = doc.paths[path]!.post;
      expect(operation.operationId).toBe(operationId);
      for (const mediaType of ['application/json', 'application/x-www-form-urlencoded']) {
        expect(operation.requestBody.content[mediaType]?.schema.$ref).toBe(
          `#/components/schemas/${schema}`,
        );
      }
    }
  });

  it('every request schema has additionalProperties: false (spec 2)', () => {
    for (const { schema } of Object.values(OPERATIONS)) {
      expect(doc.components.schemas[schema]?.additionalProperties).toBe(false);
    }
  });

  it('declares 200, 303, 400, 405, 415, 500 and 502 on each operation, each with its schema (spec 4)', () => {
    for (const path of Object.keys(OPERATIONS)) {
      const { responses } = doc.paths[path]!.post;
      expect(responses['200']?.content?.['application/json'].schema.$ref).toBe(
        `#/components/schemas/${ANSWERS[path] ?? 'SuccessResponse'}`,
      );
      expect(responses['303']?.headers).toHaveProperty('Location');
      for (const status of ['400', '405', '415', '500', '502']) {
        expect(responses[status]?.content?.['application/json'].schema.$ref).toBe(
          '#/components/schemas/ErrorResponse',
        );
      }
      expect(responses['405']?.headers).toHaveProperty('Allow');
    }
  });

  it('the error code enum lists every code the service answers (spec 7)', () => {
    const error = doc.components.schemas.ErrorResponse?.properties?.error;
    const codes = error?.properties?.code?.enum ?? [];
    expect([...codes].sort()).toEqual([...ERROR_CODES].sort());
    expect([...codes].sort()).toEqual(Object.keys(ERROR_STATUS).sort());
    for (const code of SPEC_CODES) expect(codes).toContain(code);
  });

  it('documents the formData[Question]=Answer form encoding of the audit (docs/api-decisions.md)', () => {
    const form =
      doc.paths['/api/audit']!.post.requestBody.content['application/x-www-form-urlencoded'];
    expect(form?.encoding).toEqual({ formData: { style: 'deepObject', explode: true } });
    expect(doc.components.schemas.AuditRequest?.properties?.formData?.description).toContain(
      'formData[',
    );
  });

  it('each error response shows an example answer for each code it can carry, as the server answers it', async () => {
    for (const [path, { operationId }] of Object.entries(OPERATIONS)) {
      const { responses } = doc.paths[path]!.post;
      expect(doc.paths[path]!.post.operationId).toBe(operationId);
      const shown = new Set<string>();
      for (const [status, response] of Object.entries(responses)) {
        const examples = (response.content?.['application/json'] as { examples?: object })
          ?.examples as Record<string, { value: { error: { code: string; field?: string } } }>;
        if (Number(status) < 400) continue;
        expect(examples, `${path} ${status}`).toBeDefined();
        for (const { value } of Object.values(examples)) {
          expect(ERROR_STATUS[value.error.code as never]).toBe(Number(status));
          shown.add(value.error.code);
        }
      }
      const statuses = Object.keys(responses).map(Number);
      const expected = Object.entries(ERROR_STATUS).filter(([, s]) => statuses.includes(s));
      expect([...shown].sort()).toEqual(expected.map(([code]) => code).sort());
      // The 400 examples are this endpoint's own: they name its fields.
      const invalid = (
        responses['400']!.content!['application/json'] as never as {
          examples: Record<string, { value: { error: { field?: string; hint: string } } }>;
        }
      ).examples;
      expect(invalid.missing_field!.value.error.field).toBeDefined();
      expect(invalid.invalid_field!.value.error.hint).toMatch(/renommez/i);
      const example = /par exemple (\{.*\}) /.exec(invalid.invalid_json!.value.error.hint)![1]!;
      const response = await t.app.inject({
        method: 'POST',
        url: path,
        payload: JSON.parse(example),
      });
      expect(response.statusCode, response.body).toBe(200);
    }
  });

  it('the examples it publishes are accepted by the API', async () => {
    for (const [path, { schema }] of Object.entries(OPERATIONS)) {
      const properties = doc.components.schemas[schema]?.properties ?? {};
      const body = Object.fromEntries(
        Object.entries(properties)
          .filter(([, property]) => property.examples?.length)
          .map(([name, property]) => [name, property.examples![0]]),
      );
      const response = await t.app.inject({ method: 'POST', url: path, payload: body });
      expect(response.statusCode, `${path} ${response.body}`).toBe(200);
    }
  });

  it('/api/privacy: the schema the route validates with, its two answers as examples, no Idempotency-Key', async () => {
    const operation = doc.paths['/api/privacy']!.post as Operation & { parameters: unknown[] };
    expect(doc.components.schemas.PrivacyRequest).toEqual(
      JSON.parse(JSON.stringify(PrivacyRequestSchema)),
    );
    expect(operation.parameters).toEqual([]);
    expect(operation.responses).not.toHaveProperty('409');
    expect(operation.responses['303']?.headers?.Location).toMatchObject({
      schema: { const: '/vos-donnees/merci' },
    });
    const answers = (
      operation.responses['200']!.content!['application/json'] as never as {
        examples: Record<string, { value: object }>;
      }
    ).examples;
    expect(Object.values(answers).map(({ value }) => value)).toEqual([
      { success: true, confirmation: 'sent' },
      { success: true, confirmation: 'already_sent' },
    ]);
    // The first is what the API answers to the published example (another address: the example's
    // own already got its link in the test above).
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/privacy',
      payload: { ...PRIVACY_EXAMPLE, email: 'openapi-privacy@example.fr' },
    });
    expect(response.json()).toEqual({ success: true, confirmation: 'sent' });
  });

  it('passes `redocly lint` with 0 errors and 0 warnings', async () => {
    const file = join(t.dataDir, 'openapi.json');
    writeFileSync(file, raw);
    const { stdout } = await promisify(execFile)(
      'node_modules/.bin/redocly',
      ['lint', '--format=json', file],
      { env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } },
    ).catch((error: { stdout: string }) => error); // exit code 1 on errors: read the report anyway
    const report = JSON.parse(stdout) as {
      totals: { errors: number; warnings: number };
      problems: { ruleId: string; message: string }[];
    };
    const problems = report.problems.map((problem) => `${problem.ruleId}: ${problem.message}`);
    expect(report.totals.errors, problems.join('\n')).toBe(0);
    expect(report.totals.warnings, problems.join('\n')).toBe(0);
  });
});
