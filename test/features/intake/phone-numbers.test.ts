import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import PostalMime from 'postal-mime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorResponse } from '../../../src/kernel/schemas/responses.ts';
import { expectApiError, postForm, postJson } from '../../helpers/api-assertions.ts';
import { buildTestApp, validAudit, validContact, type TestApp } from '../../helpers/app.ts';

/*
 * docs/api-decisions.md, "Phone numbers": SMS (with SMS__COUNTRY_CODE) and the audit's phone are
 * read by libphonenumber-js, in France by default; a number that cannot exist is 400 invalid_field
 * naming the field, one rule for REST, forms and MCP; what dials it (the notification's tel: link,
 * the CRM) uses its E.164 form.
 */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('an impossible number is refused, naming the field', () => {
  for (const number of ['06 12 34 5', 'zéro six douze']) {
    it(`REST: SMS « ${number} » → 400 invalid_field SMS, in French`, async () => {
      const error = expectApiError(
        await postJson(t.app, '/api/contact', { ...validContact, SMS: number }),
        400,
        'invalid_field',
      );
      expect(error.field).toBe('SMS');
      expect(error.message).toMatch(/numéro de téléphone/);
    });
  }

  it('the audit’s phone too; a form post asking for JSON gets the same answer', async () => {
    const audit = expectApiError(
      await postJson(t.app, '/api/audit', { ...validAudit, phone: '12' }),
      400,
      'invalid_field',
    );
    expect(audit.field).toBe('phone');
    const form = await postForm(
      t.app,
      '/api/contact',
      Object.entries({ ...validContact, SMS: '06 12 34 5' }),
      { accept: 'application/json' },
    );
    expect(expectApiError(form, 400, 'invalid_field').field).toBe('SMS');
  });

  it('MCP (the SDK client): the tool refuses it with the same code and field', async () => {
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const client = new Client({ name: 'leadgate-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    try {
      const result = (await client.callTool({
        name: 'submit_contact_request',
        arguments: { ...validContact, SMS: 'zéro six douze' },
      })) as CallToolResult;
      expect(result.isError).toBe(true);
      const answer = result.structuredContent as ErrorResponse;
      expect(answer.error).toMatchObject({ code: 'invalid_field', field: 'SMS' });
    } finally {
      await client.close();
    }
  });

  it('a number with its prefix, the trunk 0 kept, or a foreign one with its code: accepted', async () => {
    for (const [SMS, SMS__COUNTRY_CODE] of [
      ['+33 06 12 34 56 78', undefined],
      ['06 12 34 56 78', '+33'],
      ['7911 123456', '+44'],
    ]) {
      const response = await postJson(t.app, '/api/contact', {
        ...validContact,
        EMAIL: `tel-${SMS__COUNTRY_CODE ?? 'none'}@example.fr`,
        SMS,
        ...(SMS__COUNTRY_CODE && { SMS__COUNTRY_CODE }),
      });
      expect(response.statusCode, response.body).toBe(200);
    }
  });
});

describe('the tel: link dials the E.164 form', () => {
  it('« +33 06 12 34 56 78 » → tel:+33612345678 in the agency’s notification', async () => {
    const email = 'tel-link@example.fr';
    await postJson(t.app, '/api/contact', {
      ...validContact,
      EMAIL: email,
      SMS: '+33 06 12 34 56 78',
    });
    const directory = join(t.dataDir, 'outbox');
    const mails = await Promise.all(
      readdirSync(directory)
        .filter((name) => name.endsWith('-notification.eml'))
        .map((name) => PostalMime.parse(readFileSync(join(directory, name)))),
    );
    const mail = mails.find((candidate) => (candidate.text ?? '').includes(email))!;
    expect(mail.html).toContain('href="tel:+33612345678"');
    expect(mail.html).not.toContain('tel:+330');
    expect(mail.text).toContain('06 12 34 56 78');
  });
});
