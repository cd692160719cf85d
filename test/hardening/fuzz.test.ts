import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_STATUS } from '../../src/kernel/schemas/responses.ts';
import { LEAD_KINDS } from '../../src/kernel/schemas/lead-kinds.ts';
import { ERROR_CODES } from '../../src/kernel/schemas/responses.ts';
import {
  buildTestApp,
  validAudit,
  validContact,
  validSubscribe,
  type TestApp,
} from '../helpers/app.ts';

/*
 * docs/reliability.md: property-based fuzzing of each endpoint with generated bodies, content types and headers
 * (RUNS per endpoint and per run of the suite; the seed is printed by fast-check on failure). Whatever
 * arrives, the answer is a success or an ErrorResponse whose code is documented for its status, and
 * never a 5xx: the outbox provider cannot fail, so even 502 must not appear here.
 */
// docs/quality.md, « Property tests and their seed »: `npm test` replays the same 2,000 cases per
// endpoint from its fixed seed; `npm run test:seeds` looks for new ones, 10,000 per endpoint a seed.
const RUNS = Number(process.env.FUZZ_RUNS ?? 2_000);

let t: TestApp;
let dataDir: string;
beforeAll(async () => {
  // The fuzz checks answers, not durability: a RAM disk, where there is one, spares 30 000 fsyncs.
  dataDir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'leadgate-fuzz-'));
  t = await buildTestApp({ dialect: 'sqlite', env: { DATA_DIR: dataDir } });
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const VALID: Record<string, Record<string, unknown>> = {
  contact: validContact,
  subscribe: validSubscribe,
  audit: validAudit,
};

const nastyString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '__proto__',
    'constructor',
    'a@b.fr',
    'pas une adresse',
    'Marie\r\nBcc: x@y.fr',
    '<script>alert(1)</script>',
    '\u0000',
    '\ud800',
    'x'.repeat(300),
    '😀'.repeat(120),
    'avocats',
    'btp',
  ),
);
const jsonValue = fc.oneof(
  { weight: 4, arbitrary: nastyString },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

/** Objects close to a valid body: known field names (and some unknown ones) with hostile values. */
function bodyObject(kind: string) {
  const valid = VALID[kind]!;
  const names = [...Object.keys(valid), 'NOM', 'SMS', 'TOOL_SOURCE', 'formData', '__proto__', 'x'];
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant(valid) },
    {
      weight: 5,
      arbitrary: fc
        .record({
          drop: fc.subarray(Object.keys(valid)),
          set: fc.dictionary(fc.constantFrom(...names), jsonValue, { maxKeys: 4 }),
        })
        .map(({ drop, set }) => {
          const body: Record<string, unknown> = { ...valid };
          for (const name of drop) delete body[name];
          for (const [name, value] of Object.entries(set)) {
            Object.defineProperty(body, name, {
              value,
              enumerable: true,
              writable: true,
              configurable: true,
            });
          }
          return body;
        }),
    },
    {
      weight: 1,
      arbitrary: fc.dictionary(fc.string({ maxLength: 12 }), jsonValue, { maxKeys: 6 }),
    },
  );
}

function formEncode(body: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(body)) {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const [sub, answer] of Object.entries(value))
        params.append(`${name}[${sub}]`, formText(answer));
    } else params.append(name, formText(value));
  }
  return params.toString();
}

/** A generated object may carry its own `toString` (`{"toString": false}`): String() would throw. */
function formText(value: unknown): string {
  return value !== null && typeof value === 'object' ? JSON.stringify(value) : String(value);
}

const printable = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  maxLength: 60,
});

function requestFor(kind: string) {
  return fc.record({
    method: fc.oneof(
      { weight: 19, arbitrary: fc.constant('POST') },
      { weight: 1, arbitrary: fc.constantFrom('GET', 'PUT', 'DELETE', 'PATCH') },
    ),
    encoding: fc.constantFrom('json', 'json', 'json', 'form', 'raw'),
    object: bodyObject(kind),
    raw: fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.json(),
      fc.constantFrom('', '{', '[]', 'null', '"x"', '{"a":1}x'),
    ),
    contentType: fc.option(
      fc.oneof(
        {
          weight: 6,
          arbitrary: fc.constantFrom(
            'application/json',
            'application/json; charset=utf-8',
            'APPLICATION/JSON',
            'application/json; charset=latin1',
          ),
        },
        {
          weight: 3,
          arbitrary: fc.constantFrom(
            'application/x-www-form-urlencoded',
            'application/x-www-form-urlencoded; charset=UTF-8',
          ),
        },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            'text/plain',
            'multipart/form-data; boundary=x',
            'application/xml',
          ),
        },
        { weight: 1, arbitrary: printable },
      ),
      { nil: undefined, freq: 15 },
    ),
    accept: fc.option(
      fc.oneof(fc.constantFrom('application/json', 'text/html', '*/*'), printable),
      {
        nil: undefined,
      },
    ),
    idempotencyKey: fc.option(fc.oneof(fc.uuid(), printable), { nil: undefined, freq: 3 }),
    requestId: fc.option(printable, { nil: undefined }),
  });
}

type Generated = ReturnType<typeof requestFor> extends fc.Arbitrary<infer T> ? T : never;

function payloadOf(request: Generated, contentType: string | undefined): string {
  if (request.encoding === 'raw') return request.raw;
  const formish = contentType?.toLowerCase().includes('urlencoded');
  return request.encoding === 'form' || formish
    ? formEncode(request.object)
    : JSON.stringify(request.object);
}

const DOCUMENTED = new Set<string>(ERROR_CODES);

const SUCCESS_KEYS = new Set([
  'success',
  'existing',
  'confirmation',
  'warnings',
  'reference',
  'answerBy',
]);

describe.each(LEAD_KINDS.map((endpoint) => [endpoint.path, endpoint.kind] as const))(
  'fuzzing %s (docs/reliability.md)',
  (path, kind) => {
    it(`${RUNS} generated requests: a success or a documented ErrorResponse, never a 5xx`, async () => {
      await fc.assert(
        fc.asyncProperty(requestFor(kind), async (request) => {
          const headers: Record<string, string> = {};
          if (request.contentType !== undefined) headers['content-type'] = request.contentType;
          if (request.accept !== undefined) headers.accept = request.accept;
          if (request.idempotencyKey !== undefined)
            headers['idempotency-key'] = request.idempotencyKey;
          if (request.requestId !== undefined) headers['x-request-id'] = request.requestId;
          const withBody = request.method !== 'GET';
          const response = await t.app.inject({
            method: request.method as 'POST',
            url: path,
            headers,
            ...(withBody && { payload: payloadOf(request, request.contentType) }),
          });
          const status = response.statusCode;
          expect(status, response.body).toBeLessThan(500);
          if (status === 303) {
            expect(response.headers.location).toBe(
              LEAD_KINDS.find((endpoint) => endpoint.path === path)?.thankYouPath,
            );
            return;
          }
          const body = response.json();
          if (status === 200) {
            expect(body.success).toBe(true);
            // Spec 2.4 and docs/api-decisions.md: `existing`, and the optional `confirmation`
            // (subscribe), `warnings`, the lead's `reference` and its `answerBy`, nothing else.
            expect(Object.keys(body).filter((key) => !SUCCESS_KEYS.has(key))).toEqual([]);
            return;
          }
          expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
          expect(body.success).toBe(false);
          expect(DOCUMENTED.has(body.error.code), body.error.code).toBe(true);
          expect(ERROR_STATUS[body.error.code as keyof typeof ERROR_STATUS]).toBe(status);
          expect(typeof body.error.message).toBe('string');
          expect(typeof body.error.hint).toBe('string');
        }),
        { numRuns: RUNS },
      );
      // docs/quality.md, « Waits sized for a loaded machine »: the requests are CPU work, 10,000
      // about 10 s on a quiet machine and over 180 s at a load average of 30 on the two cores.
    }, 900_000);
  },
);
